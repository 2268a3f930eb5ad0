package io.sluice.reliability;

import io.sluice.ReactiveFile;
import io.sluice.WriteOptions;
import io.sluice.testkit.OpenFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A copy, plain or atomic, completed from outside has closed both its files when its stage
 * completes: a dependent registered before the race, which runs when the stage completes, finds no
 * descriptor into the source's directory nor the target's. Each completion from outside is raced
 * against the copy at random points, from its open to its end.
 */
class CopyClosesBothFilesTest {

    private static final int SOURCE_BYTES = 4 * 1024 * 1024;
    private static final int MIN_RUNS = 30;
    private static final long BUDGET_NANOS = TimeUnit.SECONDS.toNanos(3);

    @TempDir
    Path directory;

    @Test
    void aPlainCopyCompletedFromOutsideHasClosedBothFiles() throws Exception {
        race(WriteOptions.defaults());
    }

    @Test
    void anAtomicCopyCompletedFromOutsideHasClosedBothFiles() throws Exception {
        race(WriteOptions.defaults().withAtomicReplace());
    }

    private void race(WriteOptions options) throws Exception {
        Path sources = Files.createDirectory(directory.resolve("sources"));
        Path targets = Files.createDirectory(directory.resolve("targets"));
        Path source = Files.write(sources.resolve("source"), Content.bytes(1, SOURCE_BYTES));
        List<String> completions = List.of("cancel", "complete", "completeExceptionally", "orTimeout");
        Random random = new Random(42);
        List<String> leaks = new ArrayList<>();
        int won = 0;
        int runs = 0;
        long deadline = System.nanoTime() + BUDGET_NANOS;
        for (; runs < MIN_RUNS * completions.size() || System.nanoTime() < deadline; runs++) {
            String completion = completions.get(runs % completions.size());
            CompletableFuture<Long> stage = ReactiveFile.of(source).copyTo(targets.resolve("target"), options)
                    .toCompletableFuture();
            CompletableFuture<List<String>> openAtCompletion = stage.handle((value, error) -> {
                List<String> open = new ArrayList<>(OpenFiles.under(sources));
                open.addAll(OpenFiles.inside(targets));
                return open;
            });
            long spin = System.nanoTime() + random.nextInt(3_000_000);
            while (System.nanoTime() < spin) {
                Thread.onSpinWait();
            }
            boolean outsideWon = complete(stage, completion);
            List<String> open = openAtCompletion.get(30, TimeUnit.SECONDS);
            if (outsideWon) {
                won++;
                if (!open.isEmpty()) {
                    leaks.add(completion + " (run " + runs + "): " + open);
                }
            }
            OpenFiles.awaitNoneUnder(sources);
            OpenFiles.awaitNoneUnder(targets);
        }
        assertEquals(List.of(), leaks, "of " + won + " races won from outside in " + runs + " runs");
        assertTrue(won >= MIN_RUNS / 2, "too few races won from outside to tell: " + won + " of " + runs);
    }

    /** Completes the stage from outside; returns whether that completion won. */
    private static boolean complete(CompletableFuture<Long> stage, String completion) throws Exception {
        switch (completion) {
            case "cancel":
                return stage.cancel(true);
            case "complete":
                return stage.complete(-1L);
            case "completeExceptionally":
                return stage.completeExceptionally(new IllegalStateException("from outside"));
            default:
                boolean wasDone = stage.isDone();
                stage.orTimeout(0, TimeUnit.NANOSECONDS);
                Predicate<Throwable> timedOut = error -> error instanceof java.util.concurrent.TimeoutException;
                try {
                    stage.get(30, TimeUnit.SECONDS);
                    return false;
                } catch (java.util.concurrent.ExecutionException e) {
                    return !wasDone && timedOut.test(e.getCause());
                }
        }
    }
}
