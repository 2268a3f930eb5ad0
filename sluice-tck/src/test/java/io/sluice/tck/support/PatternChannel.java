package io.sluice.tck.support;

import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ReadableByteChannel;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A lazy synthetic channel: {@link Pattern} bytes, {@code lengthBytes} of them, generated as they
 * are read, so a source of up to {@code Long.MAX_VALUE} bytes costs nothing until it is read. Reading after close fails, as a
 * real channel does; closes are counted.
 */
public final class PatternChannel implements ReadableByteChannel {

    private final long lengthBytes;
    private final AtomicInteger closes = new AtomicInteger();
    private final CountDownLatch closed = new CountDownLatch(1);
    private long position;                    // the reader's drain only

    public PatternChannel(long lengthBytes) {
        this.lengthBytes = lengthBytes;
    }

    @Override
    public int read(ByteBuffer dst) throws ClosedChannelException {
        if (!isOpen()) {
            throw new ClosedChannelException();
        }
        if (position >= lengthBytes) {
            return -1;
        }
        int n = (int) Math.min(dst.remaining(), lengthBytes - position);
        for (int i = 0; i < n; i++) {
            dst.put(Pattern.at(position++));
        }
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

    public int closeCount() {
        return closes.get();
    }

    /** Opens when the channel is first closed. */
    public CountDownLatch closedLatch() {
        return closed;
    }

    @Override
    public String toString() {
        return "PatternChannel[" + lengthBytes + " bytes]";
    }
}
