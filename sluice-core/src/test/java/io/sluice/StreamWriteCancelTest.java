package io.sluice;

import io.sluice.testing.TestPublishers;
import io.sluice.testkit.OpenFiles;
import org.junit.jupiter.api.Test;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Cancelling {@code ByteStreams.write} while the write is blocked in the stream closes the stream
 * from the cancelling thread, which unblocks the write and frees its thread.
 */
class StreamWriteCancelTest {

    private static final int PIPE_BYTES = 1024;

    @Test
    void cancelClosesAPipedStreamWhoseReaderNeverReadsAndFreesTheWritingThread() throws Exception {
        PipedInputStream neverRead = new PipedInputStream(PIPE_BYTES);
        WatchedPipe out = new WatchedPipe(neverRead);
        try {
            CompletableFuture<Long> stage = ByteStreams.write(
                            out, TestPublishers.chunks(new byte[8 * 1024 * 1024], 64 * 1024), WriteOptions.defaults())
                    .toCompletableFuture();
            assertTrue(out.writing.await(10, TimeUnit.SECONDS), "the write starts");
            // The pipe holds 1 KiB and nobody reads: the write blocks (if it has not yet, the
            // outcome below is the same).
            assertTrue(stage.cancel(true));
            assertTrue(stage.isCancelled());
            assertEquals(0, out.closed.getCount(), "the stream is closed by the time cancel() returns");
            assertThrows(IOException.class, () -> out.write(1), "the pipe is closed for writing");
            awaitNoThreadIn("pipedWrite");
            awaitNoThreadNamed("sluice-stream-close");
        } finally {
            neverRead.close(); // frees a writer the cancel left blocked (old code)
        }
    }

    @Test
    void cancelClosesASocketStreamBlockedOnASilentPeerAndReleasesItsDescriptor() throws Exception {
        long baseline = OpenFiles.count();
        try (ServerSocket server = new ServerSocket()) {
            server.setReceiveBufferSize(32 * 1024);
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            Socket client = new Socket();
            client.setSendBufferSize(32 * 1024);
            client.connect(server.getLocalSocketAddress());
            try (Socket silent = server.accept()) { // never reads: the client's writes block
                CountDownLatch writing = new CountDownLatch(1);
                OutputStream out = new FilterOutputStream(client.getOutputStream()) {
                    @Override
                    public void write(byte[] bytes, int off, int len) throws IOException {
                        writing.countDown();
                        BlockedIn.socketWrite(() -> out.write(bytes, off, len));
                    }
                };
                CompletableFuture<Long> stage = ByteStreams.write(
                                out,
                                TestPublishers.chunks(new byte[16 * 1024 * 1024], 64 * 1024),
                                WriteOptions.defaults())
                        .toCompletableFuture();
                assertTrue(writing.await(10, TimeUnit.SECONDS), "the write starts");
                assertTrue(stage.cancel(true));
                assertTrue(client.isClosed(), "the socket is closed by the time cancel() returns");
                awaitNoThreadIn("socketWrite");
                assertFalse(silent.isClosed());
            } finally {
                client.close(); // frees a writer the cancel left blocked (old code)
            }
        }
        OpenFiles.awaitAtMost(baseline);
    }

    /**
     * A {@link BufferedOutputStream} holds its lock while its write blocks, and its close() waits
     * for that lock: it cannot be unblocked. cancel() still returns at once; the stream is closed
     * once its write ends (here: when the pipe's reader goes away).
     */
    @Test
    void cancelReturnsWhenTheStreamsCloseWaitsForTheBlockedWrite() throws Exception {
        PipedInputStream neverRead = new PipedInputStream(PIPE_BYTES);
        WatchedPipe pipe = new WatchedPipe(neverRead);
        OutputStream out = new BufferedOutputStream(pipe, 8192);
        CompletableFuture<Long> stage = ByteStreams.write(
                        out, TestPublishers.chunks(new byte[1024 * 1024], 64 * 1024), WriteOptions.defaults())
                .toCompletableFuture();
        try {
            assertTrue(pipe.writing.await(10, TimeUnit.SECONDS), "the write starts");
            AtomicReference<Boolean> cancelled = new AtomicReference<>();
            Thread canceller = new Thread(() -> cancelled.set(stage.cancel(true)), "test-canceller");
            canceller.start();
            canceller.join(TimeUnit.SECONDS.toMillis(10));
            assertFalse(canceller.isAlive(), "cancel() returns although the stream cannot be unblocked");
            assertEquals(Boolean.TRUE, cancelled.get());
            assertTrue(stage.isCancelled());
        } finally {
            neverRead.close(); // the reader goes away: the write fails, the close proceeds
        }
        assertTrue(pipe.closed.await(10, TimeUnit.SECONDS), "the stream is closed once its write has ended");
        awaitNoThreadIn("pipedWrite");
        awaitNoThreadNamed("sluice-stream-close");
    }

    /**
     * With no write in flight, a {@link BufferedOutputStream}'s own close() flushes what it holds,
     * which blocks on a stalled pipe just as a write does: cancel() still returns (S3).
     */
    @Test
    void cancelReturnsWhenAnIdleStreamsCloseBlocksFlushingItsBuffer() throws Exception {
        PipedInputStream neverRead = new PipedInputStream(PIPE_BYTES);
        WatchedPipe pipe = new WatchedPipe(neverRead);
        OutputStream out = new BufferedOutputStream(pipe, 8192);
        CountDownLatch buffered = new CountDownLatch(1);
        int itemBytes = 2 * PIPE_BYTES; // more than the pipe takes: the flush blocks
        org.reactivestreams.Publisher<java.nio.ByteBuffer> twoThenSilence =
                subscriber -> subscriber.onSubscribe(new org.reactivestreams.Subscription() {
                    private int sent;

                    @Override
                    public void request(long n) {
                        for (long i = 0; i < n && sent < 2; i++, sent++) {
                            subscriber.onNext(java.nio.ByteBuffer.allocate(itemBytes));
                        }
                    }

                    @Override
                    public void cancel() {}
                });
        CompletableFuture<Long> stage = ByteStreams.write(
                        out, twoThenSilence, WriteOptions.defaults().withListener(snapshot -> {
                            if (snapshot.writtenBytes() == 2L * itemBytes) {
                                buffered.countDown();
                            }
                        }))
                .toCompletableFuture();
        try {
            assertTrue(buffered.await(10, TimeUnit.SECONDS), "both items went into the stream's buffer");
            AtomicReference<Boolean> cancelled = new AtomicReference<>();
            Thread canceller = new Thread(() -> cancelled.set(stage.cancel(true)), "test-canceller");
            canceller.start();
            canceller.join(TimeUnit.SECONDS.toMillis(10));
            assertFalse(canceller.isAlive(), "cancel() returns although the stream's close blocks");
            assertEquals(Boolean.TRUE, cancelled.get());
        } finally {
            neverRead.close(); // the close's flush fails, the close proceeds
        }
        assertTrue(pipe.closed.await(10, TimeUnit.SECONDS), "the stream is closed once its flush has ended");
        awaitNoThreadNamed("sluice-stream-close");
    }

    /** Waits until no live thread has this name (the close helper ends once its close returns); 10 s. */
    private static void awaitNoThreadNamed(String name) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (Thread.getAllStackTraces().keySet().stream()
                .anyMatch(thread -> thread.getName().equals(name))) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("a " + name + " thread is still alive");
            }
            Thread.sleep(10);
        }
    }

    /** Waits until no live thread is inside {@link BlockedIn}{@code .method}; fails after 10 s. */
    private static void awaitNoThreadIn(String method) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (; ; ) {
            String stuck = null;
            for (var entry : Thread.getAllStackTraces().entrySet()) {
                if (Arrays.stream(entry.getValue())
                        .anyMatch(frame -> frame.getClassName().equals(BlockedIn.class.getName())
                                && frame.getMethodName().equals(method))) {
                    stuck = entry.getKey().getName() + " (" + entry.getKey().getState() + ")";
                }
            }
            if (stuck == null) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("a thread is still blocked writing: " + stuck);
            }
            Thread.sleep(10);
        }
    }

    private interface IoCall {
        void run() throws IOException;
    }

    /** A pipe that says when a write began (it runs inside {@link BlockedIn#pipedWrite}) and when it was closed. */
    private static final class WatchedPipe extends PipedOutputStream {
        final CountDownLatch writing = new CountDownLatch(1);
        final CountDownLatch closed = new CountDownLatch(1);

        WatchedPipe(PipedInputStream reader) throws IOException {
            super(reader);
        }

        @Override
        public void write(byte[] bytes, int off, int len) throws IOException {
            writing.countDown();
            BlockedIn.pipedWrite(() -> super.write(bytes, off, len));
        }

        @Override
        public void close() throws IOException {
            super.close();
            closed.countDown();
        }
    }

    /** Named frames, so a test can see whether a thread is still inside a stream's write. */
    private static final class BlockedIn {
        static void pipedWrite(IoCall write) throws IOException {
            write.run();
        }

        static void socketWrite(IoCall write) throws IOException {
            write.run();
        }
    }
}
