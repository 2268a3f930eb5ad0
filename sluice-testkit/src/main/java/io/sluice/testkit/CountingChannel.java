package io.sluice.testkit;

import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A channel that keeps nothing, for checking what a reader or a writer does with its channel: a
 * write takes every byte offered, a read fills the buffer (leaving its content as it was) and never
 * reaches the end, and both count the bytes. It counts its closes, and once closed it refuses
 * reads and writes with {@link ClosedChannelException}, counting them as uses after the close.
 *
 * <p><b>Threading:</b> any thread may call any method; every count is atomic.
 */
public final class CountingChannel implements ByteChannel {

    private final AtomicLong bytes = new AtomicLong();                // bytes read or written; any thread
    private final AtomicInteger closes = new AtomicInteger();         // close() calls; any thread
    private final AtomicInteger usesAfterClose = new AtomicInteger(); // refused reads and writes; any thread
    private final CountDownLatch closed = new CountDownLatch(1);      // opened by the first close()

    @Override
    public int read(ByteBuffer dst) throws ClosedChannelException {
        return take(dst);
    }

    @Override
    public int write(ByteBuffer src) throws ClosedChannelException {
        return take(src);
    }

    private int take(ByteBuffer buffer) throws ClosedChannelException {
        if (!isOpen()) {
            usesAfterClose.incrementAndGet();
            throw new ClosedChannelException();
        }
        int n = buffer.remaining();
        buffer.position(buffer.limit());
        bytes.addAndGet(n);
        return n;
    }

    @Override
    public boolean isOpen() {
        return closes.get() == 0;
    }

    @Override
    public void close() {
        closes.incrementAndGet();
        closed.countDown();
    }

    /** The bytes read and written so far. */
    public long bytes() {
        return bytes.get();
    }

    /** The calls to {@link #close()} so far: 0 while the channel is open. */
    public int closeCount() {
        return closes.get();
    }

    /** The reads and writes refused because the channel was closed. */
    public int usesAfterClose() {
        return usesAfterClose.get();
    }

    /** A latch that the first {@link #close()} counts down. */
    public CountDownLatch closedLatch() {
        return closed;
    }
}
