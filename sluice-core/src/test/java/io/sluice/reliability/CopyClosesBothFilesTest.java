package io.sluice.reliability;

import io.sluice.ReactiveFile;
import io.sluice.WriteOptions;
import io.sluice.internal.AbortGate;
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
 * descriptor into the run's source directory nor its target's. Each completion from outside is
 * raced against the copy at random points, from its open to its end.
 *
 * <p>Two things a descriptor listing sees are not this run's broken promise. An open still in
 * flight when the abort's wait for it ends ({@link AbortGate#OPEN_WAIT_NANOS}, G2) is closed by its
 * own thread when it returns, after the stage completed: on a loaded disk a truncating open of the
 * target often takes that long. Such a race is told by its completion having taken at least that
 * wait, and only its files' eventual close is asserted. And that late open may return during a
 * later run, so each run copies from a link and to a directory of its own: the listing sees only
 * its own run's files.
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
        Path original = Files.write(directory.resolve("original"), Content.bytes(1, SOURCE_BYTES));
        List<String> completions = List.of("cancel", "complete", "completeExceptionally", "orTimeout");
        Random random = new Random(42);
        List<String> leaks = new ArrayList<>();
        int won = 0;
        int waitedOut = 0;
        int runs = 0;
        long deadline = System.nanoTime() + BUDGET_NANOS;
        for (; runs < MIN_RUNS * completions.size() || System.nanoTime() < deadline; runs++) {
            String completion = completions.get(runs % completions.size());
            Path runSources = Files.createDirectory(sources.resolve(String.valueOf(runs)));
            Path runTargets = Files.createDirectory(targets.resolve(String.valueOf(runs)));
            Path source = Files.createLink(runSources.resolve("source"), original);
            CompletableFuture<Long> stage = ReactiveFile.of(source)
                    .copyTo(runTargets.resolve("target"), options)
                    .toCompletableFuture();
            CompletableFuture<Completed> atCompletion = stage.handle((value, error) -> {
                long now = System.nanoTime();
                List<String> open = new ArrayList<>(OpenFiles.under(runSources));
                open.addAll(OpenFiles.inside(runTargets));
                return new Completed(now, open);
            });
            long spin = System.nanoTime() + random.nextInt(3_000_000);
            while (System.nanoTime() < spin) {
                Thread.onSpinWait();
            }
            long start = System.nanoTime();
            boolean outsideWon = complete(stage, completion);
            Completed completed = atCompletion.get(30, TimeUnit.SECONDS);
            long took = completed.at() - start;
            if (outsideWon) {
                won++;
                if (took >= AbortGate.OPEN_WAIT_NANOS) {
                    waitedOut++; // an open may have outlasted the wait: closed when it returns
                } else if (!completed.open().isEmpty()) {
                    leaks.add(completion + " (run " + runs + ", " + took / 1000 + " us): " + completed.open());
                }
            }
            OpenFiles.awaitNoneUnder(sources);
            OpenFiles.awaitNoneUnder(targets);
        }
        assertEquals(
                List.of(),
                leaks,
                "of " + won + " races won from outside in " + runs + " runs (" + waitedOut
                        + " completions waited out an open)");
        assertTrue(
                won - waitedOut >= MIN_RUNS / 2,
                "too few races won from outside to tell: " + won + " of " + runs + ", " + waitedOut
                        + " of them waited out an open");
    }

    /** When the stage completed (by the dependent's clock), and what was open then. */
    private record Completed(long at, List<String> open) {}

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
