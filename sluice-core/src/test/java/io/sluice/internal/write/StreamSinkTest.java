package io.sluice.internal.write;

import io.sluice.testing.Bytes;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A stream has no gathering write: small items are staged, large heap items written as they are. */
class StreamSinkTest {

    /** Records the length of every {@code write} call. */
    private static final class CountingStream extends ByteArrayOutputStream {
        final List<Integer> writes = new ArrayList<>();

        @Override
        public synchronized void write(byte[] bytes, int offset, int length) {
            writes.add(length);
            super.write(bytes, offset, length);
        }

        @Override
        public synchronized void write(int oneByte) {
            writes.add(1);
            super.write(oneByte);
        }
    }

    @Test
    void smallItemsCostOneWritePerStagingBufferNotOnePerItem() throws Exception {
        byte[] content = Bytes.random(600 * 1024, 1);
        ByteBuffer[] items = new ByteBuffer[600];
        for (int i = 0; i < items.length; i++) {
            items[i] = ByteBuffer.wrap(content, i * 1024, 1024).slice();
        }
        CountingStream stream = new CountingStream();
        new StreamSink(stream).writeFully(items, 0, items.length);
        assertEquals(List.of(256 * 1024, 256 * 1024, 88 * 1024), stream.writes);
        assertArrayEquals(content, stream.toByteArray());
        for (ByteBuffer item : items) {
            assertFalse(item.hasRemaining(), "every item is consumed");
        }
    }

    @Test
    void aLargeHeapItemIsWrittenFromItsOwnArrayBetweenStagedOnes() throws Exception {
        byte[] content = Bytes.random(2 * 1024 + 100 * 1024 + 3, 2);
        ByteBuffer[] items = {
            ByteBuffer.wrap(content, 0, 1024).slice(),
            ByteBuffer.wrap(content, 1024, 1024).slice(),
            ByteBuffer.wrap(content, 2048, 100 * 1024).slice(),
            ByteBuffer.wrap(content, 2048 + 100 * 1024, 3).slice(),
        };
        CountingStream stream = new CountingStream();
        new StreamSink(stream).writeFully(items, 0, items.length);
        assertEquals(List.of(2048, 100 * 1024, 3), stream.writes, "staged, direct, staged");
        assertArrayEquals(content, stream.toByteArray());
    }

    @Test
    void aDirectItemLargerThanTheStagingBufferIsCopiedInPieces() throws Exception {
        byte[] content = Bytes.random(StagingBuffers.STAGING_BYTES + 5000, 3);
        ByteBuffer direct =
                ByteBuffer.allocateDirect(content.length).put(content).flip();
        CountingStream stream = new CountingStream();
        new StreamSink(stream).writeFully(new ByteBuffer[] {ByteBuffer.wrap(new byte[] {7}), direct}, 0, 2);
        assertEquals(List.of(StagingBuffers.STAGING_BYTES, 5001), stream.writes);
        byte[] expected = new byte[content.length + 1];
        expected[0] = 7;
        System.arraycopy(content, 0, expected, 1, content.length);
        assertArrayEquals(expected, stream.toByteArray());
    }

    /**
     * abort() races a batch of writes to a stream that accepts writes even after close() (as a
     * ByteArrayOutputStream does): once abort() has returned, no write call starts, and the batch
     * reports that it stopped.
     */
    @Test
    void noWriteCallStartsAfterAbortReturns() throws Exception {
        AtomicInteger lateWrites = new AtomicInteger();
        AtomicInteger stopped = new AtomicInteger();
        int iterations = 300;
        for (int i = 0; i < iterations; i++) {
            boolean[] abortReturned = {false};
            Object lock = new Object();
            OutputStream stream = new OutputStream() {
                @Override
                public void write(int oneByte) {
                    write(new byte[] {(byte) oneByte}, 0, 1);
                }

                @Override
                public void write(byte[] bytes, int offset, int length) {
                    synchronized (lock) {
                        if (abortReturned[0]) {
                            lateWrites.incrementAndGet();
                        }
                    }
                }
            };
            StreamSink sink = new StreamSink(stream);
            ByteBuffer[] items = new ByteBuffer[16];
            for (int j = 0; j < items.length; j++) {
                items[j] = ByteBuffer.wrap(new byte[StreamSink.DIRECT_WRITE_BYTES]); // one write call each
            }
            CyclicBarrier start = new CyclicBarrier(2);
            Thread drain = new Thread(() -> {
                try {
                    start.await();
                    if (!sink.writeFully(items, 0, items.length)) {
                        stopped.incrementAndGet();
                    }
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
            drain.start();
            start.await();
            sink.abort();
            synchronized (lock) {
                abortReturned[0] = true;
            }
            drain.join();
            sink.close();
        }
        assertEquals(0, lateWrites.get(), "write calls started after abort() returned");
        assertTrue(stopped.get() > 0, "some batches were stopped by the abort");
    }

    /** S3: the wait for the close starts when the helper runs, not when it was asked to start. */
    @Test
    void abortWaitsForAHelperThreadThatIsSlowToStart() throws Exception {
        AtomicInteger closes = new AtomicInteger();
        OutputStream stream = new ByteArrayOutputStream() {
            @Override
            public void close() {
                closes.incrementAndGet();
            }
        };
        long startDelayMillis = 3 * StreamSink.ABORT_WAIT_MILLIS; // a busy machine's scheduling delay
        StreamSink sink = new StreamSink(
                stream,
                task -> new Thread(() -> {
                    try {
                        Thread.sleep(startDelayMillis);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    task.run();
                }));
        sink.abort();
        assertEquals(1, closes.get(), "the stream is closed when abort() returns");
    }

    /**
     * S3 when the drain's own {@code close()} wins the race to close: abort() has set ABORTED, the
     * drain closes the stream (slowly, as a stream whose {@code close()} releases resources may), and
     * the helper finds it already claimed. abort() still returns only once that close has returned.
     */
    @Test
    void abortWaitsForACloseTheDrainStartedFirst() throws Exception {
        CountDownLatch aborting = new CountDownLatch(1);
        CountDownLatch drainClosing = new CountDownLatch(1);
        AtomicBoolean closeReturned = new AtomicBoolean();
        long closeMillis = StreamSink.ABORT_WAIT_MILLIS / 4;
        OutputStream stream = new ByteArrayOutputStream() {
            @Override
            public void close() {
                drainClosing.countDown();
                try {
                    Thread.sleep(closeMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                closeReturned.set(true);
            }
        };
        StreamSink sink = new StreamSink(stream, task -> {
            aborting.countDown(); // ABORTED is set: the drain's close() takes the aborted path
            return new Thread(() -> {
                try {
                    drainClosing.await(); // the drain has claimed the close
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                task.run();
            });
        });
        Thread drain = new Thread(() -> {
            try {
                aborting.await();
                sink.close();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        drain.start();
        sink.abort();
        boolean closedWhenAbortReturned = closeReturned.get();
        drain.join();
        assertTrue(closedWhenAbortReturned, "abort() returned while the drain's close() was still running");
    }

    @Test
    void closeAfterAbortClosesOnceAndDoesNotFlush() throws Exception {
        AtomicInteger flushes = new AtomicInteger();
        AtomicInteger closes = new AtomicInteger();
        OutputStream stream = new ByteArrayOutputStream() {
            @Override
            public void flush() {
                flushes.incrementAndGet();
            }

            @Override
            public void close() {
                closes.incrementAndGet();
            }
        };
        StreamSink sink = new StreamSink(stream);
        sink.abort();
        assertEquals(1, closes.get(), "abort() closes the stream itself");
        sink.close();
        sink.close();
        assertEquals(1, closes.get(), "closed once");
        assertEquals(0, flushes.get(), "a cancelled write is not flushed by the sink");
        assertFalse(sink.writeFully(new ByteBuffer[] {ByteBuffer.wrap(new byte[1])}, 0, 1));
    }
}
