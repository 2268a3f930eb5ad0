package io.sluice.reliability;

import io.sluice.internal.write.AtomicTemporaries;
import io.sluice.testkit.OpenFiles;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.fail;

/** Waiting on stages and looking for temporary files, with deadlines. */
final class Stages {

    static final long TIMEOUT_SECONDS = 30;

    private Stages() {}

    static <T> T value(CompletionStage<T> stage) {
        try {
            return stage.toCompletableFuture().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError("stage failed", e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError("stage did not complete in " + TIMEOUT_SECONDS + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** The exception a stage failed with (unwrapped); fails if it completes normally or hangs. */
    static Throwable failure(CompletionStage<?> stage) {
        return failure(stage, TIMEOUT_SECONDS);
    }

    /** As {@link #failure(CompletionStage)}, waiting at most {@code seconds}. */
    static Throwable failure(CompletionStage<?> stage, long seconds) {
        try {
            Object value = stage.toCompletableFuture().get(seconds, TimeUnit.SECONDS);
            return fail("expected the stage to fail, but it completed with " + value);
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (TimeoutException e) {
            throw new AssertionError("stage did not complete in " + seconds + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** Names in {@code directory} shaped like atomic-write temporaries. */
    static List<String> temporaries(Path directory) throws IOException {
        try (Stream<Path> entries = Files.list(directory)) {
            return entries.map(path -> path.getFileName().toString())
                    .filter(AtomicTemporaries::isTemporaryName)
                    .collect(Collectors.toList());
        }
    }

    /** Waits until no temporary is left in {@code directory} (a cancelled write deletes it on its drain). */
    static void awaitNoTemporaries(Path directory) throws IOException {
        long deadline = System.nanoTime() + OpenFiles.DEADLINE.toNanos();
        List<String> left = temporaries(directory);
        while (!left.isEmpty()) {
            if (System.nanoTime() > deadline) {
                fail("temporary files left in " + directory + " after " + OpenFiles.DEADLINE + ": " + left);
            }
            OpenFiles.pause();
            left = temporaries(directory);
        }
    }
}
