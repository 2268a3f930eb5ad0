package io.sluice.testkit;

import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A channel that keeps nothing, for checking what a reader or a writer does with its channel: a
 * write takes every byte, a read fills the buffer (content unchanged) and never ends; it counts
 * bytes, closes, and reads and writes refused after a close. Any thread may call any method.
 */
public final class CountingChannel implements ByteChannel {

    private final AtomicLong bytes = new AtomicLong(); // bytes read or written; any thread
    private final AtomicInteger closes = new AtomicInteger(); // close() calls; any thread
    private final AtomicInteger usesAfterClose = new AtomicInteger(); // refused reads and writes; any thread
    private final CountDownLatch closed = new CountDownLatch(1); // opened by the first close()

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

    public long bytes() {
        return bytes.get();
    }

    public int closeCount() {
        return closes.get();
    }

    public int usesAfterClose() {
        return usesAfterClose.get();
    }

    public CountDownLatch closedLatch() {
        return closed;
    }
}
