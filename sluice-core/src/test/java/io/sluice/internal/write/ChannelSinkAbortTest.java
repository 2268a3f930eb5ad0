package io.sluice.internal.write;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ChannelSink#abort()} over a user's channel that is not interruptible: abort never waits
 * for a write call in flight, no write call begins once it has returned, and the channel is
 * closed by abort when no call is in flight, else by the drain's close after that call: exactly
 * once either way.
 */
class ChannelSinkAbortTest {

    private final ExecutorService drain = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        drain.shutdownNow();
    }

    @Test
    void anAbortDuringABlockedWriteReturnsAtOnceAndNoFurtherWriteCallBegins() throws Exception {
        ScriptedChannel channel = new ScriptedChannel();
        ChannelSink sink = new ChannelSink(channel);
        Future<Boolean> writing = drain.submit(() -> sink.writeFully(
                        new ByteBuffer[] {ByteBuffer.allocate(10), ByteBuffer.allocate(10), ByteBuffer.allocate(10)},
                        0,
                        3)
                && sink.flush()); // the heap items were staged: the flush writes them
        assertTrue(channel.entered.await(30, TimeUnit.SECONDS), "the first write never started");

        sink.abort(); // returns although a write call is in flight
        channel.abortReturned = true;
        channel.release.countDown();

        assertFalse(writing.get(30, TimeUnit.SECONDS), "the write must report that it stopped (cancelled)");
        assertEquals(List.of("write"), channel.calls, "a write call began after abort() returned");
        assertEquals(List.of(), channel.violations);
        assertTrue(channel.isOpen(), "closed under a write in flight: the user's channel may not allow that");
        sink.close();
        sink.close();
        assertEquals(List.of("write", "close"), channel.calls, "the drain's close closes it, once");
    }

    @Test
    void anAbortBetweenWriteCallsClosesTheChannelAndTheNextWriteIsRefused() throws Exception {
        ScriptedChannel channel = new ScriptedChannel();
        channel.release.countDown(); // writes do not block
        ChannelSink sink = new ChannelSink(channel);
        assertTrue(sink.writeFully(new ByteBuffer[] {ByteBuffer.allocate(10)}, 0, 1));

        sink.abort();
        channel.abortReturned = true;

        assertFalse(channel.isOpen(), "abort() closes a channel no write is using");
        assertFalse(sink.writeFully(new ByteBuffer[] {ByteBuffer.allocate(10)}, 0, 1));
        sink.close(); // idempotent
        sink.abort(); // a second abort does nothing
        assertEquals(List.of("write", "close"), channel.calls, "the channel is closed exactly once");
        assertEquals(List.of(), channel.violations);
    }

    /** Not interruptible; its first write blocks until released, one byte at a time. */
    private static final class ScriptedChannel implements WritableByteChannel {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final List<String> calls = new CopyOnWriteArrayList<>();
        final List<String> violations = new CopyOnWriteArrayList<>();
        volatile boolean abortReturned;
        private volatile boolean open = true;

        @Override
        public int write(ByteBuffer source) throws IOException {
            if (abortReturned) {
                violations.add("write call began after abort() returned");
            }
            calls.add("write");
            entered.countDown();
            try {
                if (!release.await(30, TimeUnit.SECONDS)) {
                    throw new IOException("never released");
                }
            } catch (InterruptedException e) {
                throw new java.io.InterruptedIOException();
            }
            int n = source.remaining();
            source.position(source.limit());
            return n;
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public void close() {
            calls.add("close"); // every call counts: W6 wants exactly one
            open = false;
        }
    }
}
