package io.sluice.properties;

import io.sluice.ReactiveFile;
import io.sluice.ReadOptions;
import io.sluice.testkit.OpenFiles;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The read path end to end through {@code ReactiveFile.read(ReadOptions)}: for file sizes around
 * multiples of the chunk size, any chunk size and range, any pattern of {@code request(n)} (one at a
 * time, a few, everything), made on the signalling thread or from another thread, on any executor,
 * and a cancel at any point: the chunks are exactly the range's bytes (a prefix of them after a
 * cancel), every chunk is non-empty and at most the chunk size, all but the last are full, there is
 * exactly one terminal signal unless cancelled, and the file is closed before {@code onComplete}
 * and after a cancel.
 */
class ReadChunkPropertyTest {

    /** A file of {@code size} bytes read with {@code chunk}-byte chunks, whole or as a range. */
    static final class Case {
        final int chunk;
        final int size;
        final long offset; // -1: no range
        final long length;

        Case(int chunk, int size, long offset, long length) {
            this.chunk = chunk;
            this.size = size;
            this.offset = offset;
            this.length = length;
        }

        ReadOptions options() {
            ReadOptions options = chunk == ReadOptions.DEFAULT_CHUNK_SIZE_BYTES
                    ? ReadOptions.defaults()
                    : ReadOptions.defaults().withChunkSize(chunk);
            return offset < 0 ? options : options.withRange(offset, length);
        }

        byte[] expected(byte[] file) {
            if (offset < 0) {
                return file;
            }
            int from = (int) Math.min(offset, file.length);
            int to = (int) Math.min(file.length, from + Math.min(length, (long) file.length));
            return Arrays.copyOfRange(file, from, to);
        }

        @Override
        public String toString() {
            return "Case[chunk=" + chunk + ", size=" + size + (offset < 0 ? "" : ", range=" + offset + "+" + length)
                    + "]";
        }
    }

    @Provide
    Arbitrary<Case> cases() {
        Arbitrary<Integer> chunks = Arbitraries.frequencyOf(
                Tuple.of(2, Arbitraries.integers().between(1, 16)),
                Tuple.of(2, Arbitraries.just(4096)),
                Tuple.of(3, Arbitraries.just(ReadOptions.DEFAULT_CHUNK_SIZE_BYTES)),
                Tuple.of(3, Arbitraries.integers().between(17, 100_000)));
        return chunks.flatMap(chunk -> {
            int most = Math.max(1, Math.min(300, 600_000 / chunk));
            Arbitrary<Integer> multiples = Arbitraries.frequencyOf(
                    Tuple.of(1, Arbitraries.integers().between(0, 1)),
                    Tuple.of(2, Arbitraries.integers().between(2, 4)),
                    Tuple.of(2, Arbitraries.integers().between(0, most)));
            Arbitrary<Integer> deltas = Arbitraries.frequencyOf(
                    Tuple.of(3, Arbitraries.integers().between(-1, 1)),
                    Tuple.of(1, Arbitraries.integers().between(-chunk + 1, chunk - 1)));
            Arbitrary<Integer> sizes = Combinators.combine(multiples, deltas)
                    .as((multiple, delta) -> Math.max(0, multiple * chunk + delta));
            return sizes.flatMap(size -> {
                Arbitrary<Long> offsets = Arbitraries.frequencyOf(
                        Tuple.of(4, Arbitraries.just(-1L)),
                        Tuple.of(1, Arbitraries.just(0L)),
                        Tuple.of(2, Arbitraries.longs().between(0, size + 2L)),
                        Tuple.of(1, Arbitraries.of((long) chunk - 1, (long) chunk, chunk + 1L)),
                        Tuple.of(1, Arbitraries.of((long) size, size + 1L)));
                Arbitrary<Long> lengths = Arbitraries.frequencyOf(
                        Tuple.of(1, Arbitraries.of(0L, 1L, Long.MAX_VALUE)),
                        Tuple.of(2, Arbitraries.of(chunk - 1L, (long) chunk, chunk + 1L, 2L * chunk, 3L * chunk + 1)),
                        Tuple.of(2, Arbitraries.longs().between(0, size + 1L)));
                return Combinators.combine(offsets, lengths)
                        .as((offset, length) -> new Case(chunk, size, offset, length));
            });
        });
    }

    @Provide
    Arbitrary<List<Long>> requests() {
        return Arbitraries.frequencyOf(
                        Tuple.of(5, Arbitraries.just(1L)),
                        Tuple.of(3, Arbitraries.longs().between(2, 7)),
                        Tuple.of(1, Arbitraries.longs().between(8, 100)),
                        Tuple.of(1, Arbitraries.just(Long.MAX_VALUE)))
                .list()
                .ofMinSize(1)
                .ofMaxSize(10);
    }

    @Provide
    Arbitrary<Integer> cancelAfter() {
        return Arbitraries.frequencyOf(
                Tuple.of(2, Arbitraries.just(-1)), // never
                Tuple.of(1, Arbitraries.just(0)), // before the first request
                Tuple.of(3, Arbitraries.integers().between(1, 20)));
    }

    @Provide
    Arbitrary<ExecutorKind> executors() {
        return Arbitraries.of(ExecutorKind.available());
    }

    @Property(tries = 400, edgeCases = EdgeCasesMode.NONE)
    void chunksAreExactBoundedAndTheFileIsClosed(
            @ForAll("cases") Case readCase,
            @ForAll("requests") List<Long> requests,
            @ForAll("cancelAfter") int cancelAfter,
            @ForAll boolean requestFromAnotherThread,
            @ForAll("executors") ExecutorKind executorKind)
            throws Exception {
        Path directory = Files.createTempDirectory("sluice-props-read");
        Executor executor = executorKind.create();
        try {
            byte[] file = new byte[readCase.size];
            new Random(readCase.size * 31L + readCase.chunk).nextBytes(file);
            Path path = Files.write(directory.resolve("source"), file);
            ReadOptions options =
                    executor == null ? readCase.options() : readCase.options().withExecutor(executor);
            Reader reader = new Reader(directory, requests, cancelAfter, requestFromAnotherThread);

            ReactiveFile.of(path).read(options).subscribe(reader);
            if (requestFromAnotherThread) {
                reader.serveFromThisThread();
            }
            assertTrue(
                    reader.settled.await(30, TimeUnit.SECONDS),
                    "no terminal signal and no cancel: " + reader.chunks.size() + " chunks, requested "
                            + reader.requestedTotal);
            boolean quiet = ExecutorKind.quiesce(executor);
            if (reader.cancelled) {
                awaitClosed(directory, quiet);
            }

            Statistics.label("ending")
                    .collect(
                            reader.cancelled ? "cancelled" : "completed", readCase.offset < 0 ? "whole file" : "range");
            Statistics.label("chunks")
                    .collect(reader.chunks.size() <= 1 ? "0-1" : reader.chunks.size() <= 8 ? "2-8" : "9+");
            assertNull(reader.violation, reader.violation);
            assertNull(reader.error, "onError: " + reader.error);
            byte[] expected = readCase.expected(file);
            byte[] received = reader.bytes.toByteArray();
            for (int i = 0; i < reader.chunks.size(); i++) {
                int chunk = reader.chunks.get(i);
                assertTrue(chunk > 0 && chunk <= readCase.chunk, "chunk " + i + " has " + chunk + " bytes");
                assertTrue(
                        i == reader.chunks.size() - 1 || chunk == readCase.chunk,
                        "chunk " + i + " of " + reader.chunks.size() + " is not full: " + chunk);
            }
            if (reader.cancelled) {
                assertTrue(reader.completions <= 1, "completed " + reader.completions + " times");
                assertTrue(
                        received.length <= expected.length
                                && Arrays.equals(received, Arrays.copyOf(expected, received.length)),
                        "received " + received.length + " bytes that are not a prefix of the " + expected.length
                                + " expected");
                if (!requestFromAnotherThread) {
                    assertEquals(cancelAfter, reader.chunks.size(), "chunks after a cancel on the signalling thread");
                }
            } else {
                assertEquals(1, reader.completions, "onComplete");
                assertArrayEquals(expected, received, "the chunks' bytes");
                assertEquals(List.of(), reader.openAtComplete, "open when onComplete arrived");
            }
        } finally {
            if (executor != null) {
                ExecutorKind.quiesce(executor);
            }
            for (String name : new String[] {"source", ""}) {
                Files.deleteIfExists(directory.resolve(name));
            }
        }
    }

    private static void awaitClosed(Path directory, boolean quiet) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(quiet ? 0 : 10);
        while (!OpenFiles.inside(directory).isEmpty()) {
            if (System.nanoTime() >= deadline) {
                fail("open after the cancel" + (quiet ? " and the executor's end" : "") + ": "
                        + OpenFiles.inside(directory));
            }
            Thread.sleep(5);
        }
    }

    /**
     * Requests as the pattern says, the next amount once the last is used up (the last amount
     * repeats), on the signalling thread or through a queue served by the test thread, and cancels
     * after {@code cancelAfter} chunks (0: before the first request; -1: never).
     */
    private static final class Reader implements Subscriber<ByteBuffer> {
        private static final Object MORE = new Object();
        private static final Object CANCEL = new Object();
        private static final Object DONE = new Object();

        final List<Integer> chunks = Collections.synchronizedList(new ArrayList<>());
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream(); // the signalling thread (serial, §1.3)
        final CountDownLatch terminated = new CountDownLatch(1);
        final CountDownLatch settled = new CountDownLatch(1); // terminated or cancelled
        private final Path directory;
        private final List<Long> requests;
        private final int cancelAfter;
        private final boolean fromAnotherThread;
        private final BlockingQueue<Object> commands = new LinkedBlockingQueue<>();
        private volatile Subscription subscription;
        private volatile long
                outstanding; // the requesting thread and the signalling thread, handed over by the queue or serial
        private int nextRequest; // the requesting thread
        volatile long requestedTotal;
        volatile boolean cancelled;
        volatile int completions;
        volatile Throwable error;
        volatile String violation;
        volatile List<String> openAtComplete;

        Reader(Path directory, List<Long> requests, int cancelAfter, boolean fromAnotherThread) {
            this.directory = directory;
            this.requests = requests;
            this.cancelAfter = cancelAfter;
            this.fromAnotherThread = fromAnotherThread;
        }

        @Override
        public void onSubscribe(Subscription subscription) {
            this.subscription = subscription;
            if (fromAnotherThread) {
                commands.add(cancelAfter == 0 ? CANCEL : MORE);
            } else if (cancelAfter == 0) {
                cancel();
            } else {
                requestNext();
            }
        }

        @Override
        public void onNext(ByteBuffer chunk) {
            if (terminated.getCount() == 0) {
                violation = "onNext after a terminal signal (§1.7)";
            }
            if (outstanding <= 0) {
                violation = "onNext beyond demand (§1.1)";
            }
            chunks.add(chunk.remaining());
            byte[] copy = new byte[chunk.remaining()];
            chunk.get(copy);
            bytes.write(copy, 0, copy.length);
            outstanding--;
            boolean cancelNow = chunks.size() == cancelAfter;
            if (fromAnotherThread) {
                if (cancelNow) {
                    commands.add(CANCEL);
                } else if (outstanding == 0) {
                    commands.add(MORE);
                }
            } else if (cancelNow) {
                cancel();
            } else if (outstanding == 0) {
                requestNext();
            }
        }

        @Override
        public void onError(Throwable error) {
            this.error = error;
            terminated.countDown();
            settled.countDown();
            commands.add(DONE);
        }

        @Override
        public void onComplete() {
            openAtComplete = OpenFiles.inside(directory);
            completions++;
            terminated.countDown();
            settled.countDown();
            commands.add(DONE);
        }

        /** Serves the queued requests and cancel on this thread until the read ends or is cancelled. */
        void serveFromThisThread() throws InterruptedException {
            for (; ; ) {
                Object command = commands.poll(30, TimeUnit.SECONDS);
                assertNotNull(command, "the read stalled: " + chunks.size() + " chunks, requested " + requestedTotal);
                if (command == DONE) {
                    return;
                }
                if (command == CANCEL) {
                    cancel();
                    return;
                }
                requestNext();
            }
        }

        private void requestNext() {
            long n = requests.get(Math.min(nextRequest++, requests.size() - 1));
            outstanding = n == Long.MAX_VALUE || outstanding + n < 0 ? Long.MAX_VALUE : outstanding + n;
            requestedTotal = requestedTotal + n < 0 ? Long.MAX_VALUE : requestedTotal + n;
            subscription.request(n);
        }

        private void cancel() {
            cancelled = true;
            subscription.cancel();
            settled.countDown();
        }
    }
}
