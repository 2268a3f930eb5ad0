package io.sluice.tck.support;

import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.spi.AbstractInterruptibleChannel;
import java.util.concurrent.CountDownLatch;

/**
 * A lazy synthetic channel: {@link Pattern} bytes, {@code lengthBytes} of them, generated as they
 * are read, so a source of up to {@code Long.MAX_VALUE} bytes costs nothing until it is read.
 *
 * <p>Closes like a socket or a pipe: it is an {@link AbstractInterruptibleChannel}, so
 * {@link #close()} may be called from any thread and more than once (a reader may close it from a
 * cancelling thread and again from its drain); only the first call has an effect. Reading after
 * close fails, as on a real channel.
 */
public final class PatternChannel extends AbstractInterruptibleChannel implements ReadableByteChannel {

    private final long lengthBytes;
    private final CountDownLatch closed = new CountDownLatch(1);
    private long position; // the reader's drain only

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

    /** Called once, by the first {@link #close()}. */
    @Override
    protected void implCloseChannel() {
        closed.countDown();
    }

    /** Opens when the channel is closed. */
    public CountDownLatch closedLatch() {
        return closed;
    }

    @Override
    public String toString() {
        return "PatternChannel[" + lengthBytes + " bytes]";
    }
}
