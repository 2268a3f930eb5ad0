package io.sluice.reliability;

import io.sluice.WriteMode;
import io.sluice.internal.write.AtomicFileSink;
import io.sluice.internal.write.FileSink;
import io.sluice.internal.write.WriteSink;
import io.sluice.testkit.OpenFiles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@link WriteSink#abort()} contract of the file sinks, attacked with real threads: once
 * {@code abort()} has returned, the channel is closed and no byte of the write reaches the file
 * any more, whether the abort lands mid-write, before the open, or races the open. Each check is
 * made twice: when {@code abort()} returns, and again after the writing thread has ended, so a
 * write that slipped in after the abort is seen without sleeping.
 */
class FileSinkAbortTest {

    private static final long BUDGET_NANOS = TimeUnit.MILLISECONDS.toNanos(1200);
    private static final int MAX_RUNS = 300;
    private static final int ITEM_BYTES = 256 * 1024;
    private static final int ITEMS = 4;
    private static final long WRITER_LIMIT_BYTES = 32L * 1024 * 1024;

    @TempDir
    Path directory;

    private final ExecutorService threads = Executors.newFixedThreadPool(2);
    private final byte[] oldContent = Content.bytes(3, 10_000);

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    @Test
    void afterAbortReturnsAFileSinkIsClosedAndTheFileNeverGrows() throws Exception {
        Path target = directory.resolve("target");
        Random random = new Random(11);
        int[] stopped = new int[1];
        repeat(run -> {
            Files.deleteIfExists(target);
            FileSink sink = new FileSink(target, WriteMode.TRUNCATE);
            sink.open(WriteSink.Stop.NEVER);
            CountDownLatch wrote = new CountDownLatch(1 + random.nextInt(3));
            Future<String> writer = threads.submit(() -> writeUntilStopped(sink, wrote));
            assertTrue(wrote.await(30, TimeUnit.SECONDS), "the writer never wrote");

            sink.abort();
            long sizeAtAbort = Files.size(target);
            List<String> openAtAbort = OpenFiles.under(directory);

            String how = writer.get(30, TimeUnit.SECONDS);
            assertEquals(List.of(), openAtAbort, run + ": abort() returned with the channel still open");
            assertEquals(sizeAtAbort, Files.size(target), run + ": the file grew after abort() returned (" + how + ")");
            stopped[0] += how.startsWith("finished") ? 0 : 1; // else the abort came after the last write
            sink.close();
            sink.close(); // idempotent after an abort
        });
        assertTrue(stopped[0] > 0, "no abort ever landed mid-write");
    }

    @Test
    void anAbortBeforeTheOpenMeansTheFileIsNeverOpenedNorTruncated() throws Exception {
        Path target = Files.write(directory.resolve("target"), oldContent);
        Path absent = directory.resolve("absent");
        for (WriteMode mode : WriteMode.values()) {
            for (Path path : List.of(target, absent)) {
                FileSink sink = new FileSink(path, mode);
                sink.abort();
                assertThrows(IOException.class, () -> sink.open(WriteSink.Stop.NEVER), mode + " " + path);
                sink.close();
            }
        }
        assertEquals(Content.sha256(oldContent), Content.sha256(target), "truncated after the abort");
        assertFalse(Files.exists(absent), "created after the abort");
        assertEquals(List.of(), OpenFiles.under(directory));
    }

    @Test
    void anAbortRacingTheOpenNeverLetsTheOpenOrAWriteHappenAfterItReturns() throws Exception {
        Path target = directory.resolve("target");
        int[] refused = new int[1];
        repeat(run -> {
            Files.write(target, oldContent);
            FileSink sink = new FileSink(target, WriteMode.TRUNCATE);
            OpenOutcome outcome = raceOpenAndAbort(sink, () -> {
                String atAbort = Content.sha256(target);
                List<String> openAtAbort = OpenFiles.under(directory);
                return () -> {
                    assertEquals(List.of(), openAtAbort, run + ": abort() returned with the channel still open");
                    assertEquals(atAbort, Content.sha256(target), run + ": the file changed after abort() returned");
                };
            });
            if (outcome == OpenOutcome.REFUSED) {
                refused[0]++;
                assertEquals(
                        Content.sha256(oldContent),
                        Content.sha256(target),
                        run + ": the abort came first, yet the file was truncated");
            } else if (outcome == OpenOutcome.CLOSED_LATE) {
                assertEquals(0, Files.size(target), run + ": an open that returned after the abort wrote");
            }
            sink.close();
        });
        System.out.printf("FileSinkAbortTest: the abort came before the open in %d runs%n", refused[0]);
    }

    @Test
    void afterAbortReturnsAnAtomicSinksTemporaryIsGoneAndTheTargetUntouched() throws Exception {
        Path target = Files.write(directory.resolve("target"), oldContent);
        Random random = new Random(12);
        int[] stopped = new int[1];
        repeat(run -> {
            AtomicFileSink sink = new AtomicFileSink(target, WriteMode.TRUNCATE);
            sink.open(WriteSink.Stop.NEVER);
            CountDownLatch wrote = new CountDownLatch(1 + random.nextInt(3));
            Future<String> writer = threads.submit(() -> writeUntilStopped(sink, wrote));
            assertTrue(wrote.await(30, TimeUnit.SECONDS), "the writer never wrote");

            sink.abort();
            List<String> temporariesAtAbort = Stages.temporaries(directory);
            List<String> openAtAbort = OpenFiles.under(directory);

            String how = writer.get(30, TimeUnit.SECONDS);
            assertEquals(List.of(), temporariesAtAbort, run + ": abort() returned before deleting the temporary");
            assertEquals(List.of(), openAtAbort, run + ": abort() returned with the channel still open");
            stopped[0] += how.startsWith("finished") ? 0 : 1;
            assertThrows(IOException.class, sink::commit, run + ": a commit after the abort");
            sink.close();
            assertEquals(List.of(), Stages.temporaries(directory), run + ": a temporary came back (" + how + ")");
            assertEquals(Content.sha256(oldContent), Content.sha256(target), run + ": the target was touched");
        });
        assertTrue(stopped[0] > 0, "no abort ever landed mid-write");
    }

    @Test
    void anAbortRacingAnAtomicOpenLeavesNoTemporaryOnceItReturns() throws Exception {
        Path target = Files.write(directory.resolve("target"), oldContent);
        repeat(run -> {
            AtomicFileSink sink = new AtomicFileSink(target, WriteMode.TRUNCATE);
            OpenOutcome outcome = raceOpenAndAbort(sink, () -> {
                List<String> temporariesAtAbort = Stages.temporaries(directory);
                List<String> openAtAbort = OpenFiles.under(directory);
                return () -> {
                    assertEquals(
                            List.of(), temporariesAtAbort, run + ": abort() returned before deleting the temporary");
                    assertEquals(List.of(), openAtAbort, run + ": abort() returned with the channel still open");
                    assertEquals(
                            List.of(), Stages.temporaries(directory), run + ": a temporary appeared after the abort");
                };
            });
            if (outcome == OpenOutcome.CLOSED_LATE) {
                assertEquals(List.of(), Stages.temporaries(directory), run + ": a late open left its temporary");
            }
            sink.close();
            assertEquals(Content.sha256(oldContent), Content.sha256(target), run + ": the target was touched");
        });
    }

    /** What to check once the racing thread has ended, given what was seen when abort() returned. */
    @FunctionalInterface
    private interface Snapshot {
        Check take() throws Exception;
    }

    @FunctionalInterface
    private interface Check {
        void verify() throws Exception;
    }

    @FunctionalInterface
    private interface Run {
        void run(String name) throws Exception;
    }

    /** How the racing open ended. */
    private enum OpenOutcome {
        /** It opened (and the abort closed what it opened). */
        OPENED,
        /** The abort came first: nothing was opened. */
        REFUSED,
        /**
         * The open was in flight longer than the abort waits ({@code AbortGate} G2, a loaded
         * machine can stretch an open so): it may have created or truncated the file, then closed
         * it at once; the snapshot taken when the abort returned does not apply.
         */
        CLOSED_LATE
    }

    /**
     * Opens {@code sink} (then writes a few MiB) on one thread while this one aborts it, from one
     * start line; {@code snapshot} runs as soon as {@code abort()} returns, its check once the other
     * thread has ended, unless the open returned after the abort stopped waiting for it.
     */
    private OpenOutcome raceOpenAndAbort(WriteSink sink, Snapshot snapshot) throws Exception {
        CyclicBarrier start = new CyclicBarrier(2);
        Future<OpenOutcome> opener = threads.submit(() -> {
            start.await();
            try {
                sink.open(WriteSink.Stop.NEVER);
            } catch (IOException refused) {
                return refused.getMessage().contains("while it opened") ? OpenOutcome.CLOSED_LATE : OpenOutcome.REFUSED;
            }
            writeUntilStopped(sink, new CountDownLatch(1));
            return OpenOutcome.OPENED;
        });
        start.await(30, TimeUnit.SECONDS);
        sink.abort();
        Check check = snapshot.take();
        OpenOutcome outcome = opener.get(30, TimeUnit.SECONDS);
        if (outcome != OpenOutcome.CLOSED_LATE) {
            check.verify();
        }
        OpenFiles.awaitNoneUnder(directory);
        return outcome;
    }

    /** Writes 1 MiB batches until the sink refuses or fails, or {@link #WRITER_LIMIT_BYTES}; says how it ended. */
    private static String writeUntilStopped(WriteSink sink, CountDownLatch wrote) {
        ByteBuffer[] batch = new ByteBuffer[ITEMS];
        for (int i = 0; i < ITEMS; i++) {
            batch[i] = ByteBuffer.allocateDirect(ITEM_BYTES);
        }
        long written = 0;
        try {
            while (written < WRITER_LIMIT_BYTES) {
                for (ByteBuffer item : batch) {
                    item.clear();
                }
                if (!sink.writeFully(batch, 0, ITEMS)) {
                    return "refused after " + written + " bytes";
                }
                written += (long) ITEMS * ITEM_BYTES;
                wrote.countDown();
            }
            return "finished " + written + " bytes";
        } catch (IOException e) {
            return "failed after " + written + " bytes: " + e;
        } finally {
            while (wrote.getCount() > 0) {
                wrote.countDown(); // never leave the test waiting
            }
        }
    }

    /** Runs {@code run} many times, bounded to about a second. */
    private static void repeat(Run run) throws Exception {
        long deadline = System.nanoTime() + BUDGET_NANOS;
        for (int i = 0; i < MAX_RUNS && (i < 5 || System.nanoTime() < deadline); i++) {
            run.run("run " + i);
        }
    }
}
