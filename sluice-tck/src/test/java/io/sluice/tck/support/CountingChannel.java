package io.sluice.tck.support;

import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.WritableByteChannel;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** A writable channel that keeps nothing: it counts bytes and closes, and refuses writes once closed. */
public final class CountingChannel implements WritableByteChannel {

    private final AtomicLong bytes = new AtomicLong();
    private final AtomicInteger closes = new AtomicInteger();
    private final CountDownLatch closed = new CountDownLatch(1);

    @Override
    public int write(ByteBuffer src) throws ClosedChannelException {
        if (!isOpen()) {
            throw new ClosedChannelException();
        }
        int n = src.remaining();
        src.position(src.limit());
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

    public CountDownLatch closedLatch() {
        return closed;
    }
}
