package io.sluice.reliability;

import io.sluice.ReactiveFile;
import io.sluice.WriteOptions;
import io.sluice.testkit.OpenFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;

import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A copy or write cancelled mid-flight through the public entry points: when {@code cancel(true)}
 * returns, the files are closed and the target never changes again, so a fresh 5-byte write to
 * the same path gives exactly those 5 bytes. The operation's executor is shut down and awaited
 * before the later checks, so nothing of the cancelled operation can still run (no sleeps).
 */
class CancelClosesTest {

    private static final long SOURCE_BYTES = 256L * 1024 * 1024;
    private static final int RUNS = 4;
    private static final byte[] FIVE = {1, 2, 3, 4, 5};

    @TempDir
    Path directory;

    @Test
    void aCancelledCopyIsClosedWhenCancelReturnsAndNeverWritesAgain() throws Exception {
        Path source = sparseSource();
        Path target = directory.resolve("copy");
        for (int run = 0; run < RUNS; run++) {
            cancelMidFlightThenWriteFive(
                    "copy run " + run,
                    target,
                    executor -> ReactiveFile.of(source)
                            .copyTo(target, WriteOptions.defaults().withExecutor(executor)));
        }
    }

    @Test
    void aCancelledWriteIsClosedWhenCancelReturnsAndNeverWritesAgain() throws Exception {
        Path target = directory.resolve("write");
        for (int run = 0; run < RUNS; run++) {
            Flux<ByteBuffer> fast = Flux.<ByteBuffer>generate(sink -> sink.next(ByteBuffer.allocateDirect(1 << 20)))
                    .subscribeOn(Schedulers.boundedElastic());
            cancelMidFlightThenWriteFive(
                    "write run " + run,
                    target,
                    executor -> ReactiveFile.of(target)
                            .write(fast, WriteOptions.defaults().withExecutor(executor)));
        }
    }

    @Test
    void aCopyCancelledAsItOpensNeverTruncatesNorWritesTheTargetAfterCancelReturns() throws Exception {
        Path source = Files.write(directory.resolve("small-source"), Content.bytes(5, 300_000));
        Path target = directory.resolve("prefilled");
        byte[] old = Content.bytes(6, 1000);
        int cancelledRuns = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        for (int run = 0; run < 200 && (run < 10 || System.nanoTime() < deadline); run++) {
            Files.write(target, old);
            ExecutorService thread = Executors.newSingleThreadExecutor();
            CyclicBarrier start = new CyclicBarrier(2);
            AtomicBoolean first = new AtomicBoolean(true);
            Executor startLine = task -> thread.execute(() -> {
                if (first.getAndSet(false)) {
                    await(start); // the first pass (the open) races the cancel
                }
                task.run();
            });
            CompletableFuture<Long> copy = ReactiveFile.of(source)
                    .copyTo(target, WriteOptions.defaults().withExecutor(startLine))
                    .toCompletableFuture();
            await(start);

            boolean cancelled = copy.cancel(true);
            String atCancel = Content.sha256(target);
            List<String> openAtCancel = OpenFiles.under(directory);
            thread.shutdown();
            assertTrue(thread.awaitTermination(30, TimeUnit.SECONDS));
            if (cancelled) {
                cancelledRuns++;
                assertEquals(List.of(), openAtCancel, "run " + run + ": cancel(true) returned with files open");
                assertEquals(
                        atCancel, Content.sha256(target), "run " + run + ": the target changed after cancel returned");
            }
        }
        System.out.printf("CancelClosesTest: %d copies cancelled as they started%n", cancelledRuns);
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("start line never reached", e);
        }
    }

    /**
     * Needs the stage to run its abort before its dependents: a dependent of a cancelled copy
     * already sees both files closed.
     */
    @Test
    void aDependentOfACancelledCopySeesBothFilesClosed() throws Exception {
        Path source = sparseSource();
        Path target = directory.resolve("copy");
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try {
            CompletableFuture<Long> copy = ReactiveFile.of(source)
                    .copyTo(target, WriteOptions.defaults().withExecutor(executor))
                    .toCompletableFuture();
            AtomicReference<List<String>> openInDependent = new AtomicReference<>();
            CompletableFuture<?> dependent = copy.handle((value, error) -> {
                openInDependent.set(OpenFiles.under(directory));
                return null;
            });
            awaitBytesIn(target, copy);
            assertTrue(copy.cancel(true));
            dependent.get(30, TimeUnit.SECONDS);
            assertEquals(List.of(), openInDependent.get(), "a dependent ran while the copy's files were open");
        } finally {
            executor.shutdownNow();
        }
    }

    private void cancelMidFlightThenWriteFive(
            String run, Path target, Function<ExecutorService, java.util.concurrent.CompletionStage<Long>> start)
            throws Exception {
        ExecutorService executor = Executors.newSingleThreadExecutor();
        CompletableFuture<Long> stage = start.apply(executor).toCompletableFuture();
        awaitBytesIn(target, stage);

        boolean cancelled = stage.cancel(true);
        long sizeAtCancel = Files.size(target);
        List<String> openAtCancel = OpenFiles.under(directory);

        executor.shutdown(); // nothing of the cancelled operation runs after this
        assertTrue(executor.awaitTermination(30, TimeUnit.SECONDS), run + ": the operation's executor never quiesced");
        assertTrue(cancelled, run + ": the operation ended before the cancel");
        assertEquals(List.of(), openAtCancel, run + ": cancel(true) returned with files still open");
        assertEquals(sizeAtCancel, Files.size(target), run + ": the target grew after cancel(true) returned");

        assertEquals(FIVE.length, Stages.value(ReactiveFile.of(target).write(Flux.just(ByteBuffer.wrap(FIVE)))));
        assertArrayEquals(FIVE, Files.readAllBytes(target), run + ": the cancelled operation wrote into the new file");
        Files.delete(target);
    }

    private Path sparseSource() throws Exception {
        Path source = directory.resolve("source");
        try (RandomAccessFile file = new RandomAccessFile(source.toFile(), "rw")) {
            file.setLength(SOURCE_BYTES); // sparse: reads as zeros, costs no disk
        }
        return source;
    }

    /** Waits (polling, with a deadline) until the operation has put bytes into {@code target}. */
    private static void awaitBytesIn(Path target, CompletableFuture<Long> stage) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!Files.exists(target) || Files.size(target) == 0) {
            if (stage.isDone()) {
                fail("the operation ended before writing anything: " + stage);
            }
            if (System.nanoTime() > deadline) {
                fail("no byte reached " + target + " in 30 s");
            }
            Thread.onSpinWait();
        }
    }
}
