package io.sluice.internal.read;

import io.sluice.internal.Readiness;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.spi.AbstractInterruptibleChannel;
import java.util.function.BooleanSupplier;

/**
 * Any readable channel, limited to a range (skipping {@code offset} bytes first). A non-blocking
 * selectable channel is waited on with a selector, never spun on. Does not fill chunks
 * ({@link ReadSource#fillsChunks()}), whatever the channel: a {@link FileChannel} may be a FIFO or
 * a device, and returns a full buffer anyway when it reads a regular file. Drain-confined, except
 * {@link #abort()}.
 */
public final class ChannelReadSource implements ReadSource {

    private final ReadableByteChannel channel; // read and closed by the drain; abort() closes it too
    private final Readiness readiness; // used by the drain only
    private long toSkip; // drain-confined: bytes still to skip
    private long left; // drain-confined: bytes left; MAX_VALUE: open-ended
    private final boolean exact; // ending before the range's end is an error
    private final BooleanSupplier cancelled; // a read ended by a cancel is no shortfall

    public ChannelReadSource(ReadableByteChannel channel, long offset, long length, BooleanSupplier cancelled) {
        this(channel, offset, length, false, cancelled);
    }

    /** As above; with {@code exact}, a channel that ends before the range's end fails the read. */
    public ChannelReadSource(
            ReadableByteChannel channel, long offset, long length, boolean exact, BooleanSupplier cancelled) {
        this.channel = channel;
        this.readiness = new Readiness(channel, SelectionKey.OP_READ, cancelled);
        this.toSkip = offset;
        this.left = length;
        this.exact = exact && length != Long.MAX_VALUE;
        this.cancelled = cancelled;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        while (toSkip > 0) {
            ByteBuffer skip = ByteBuffer.allocate((int) Math.min(toSkip, 8 * 1024));
            int n = readSome(skip);
            if (n < 0) {
                endedEarly(toSkip + left);
                toSkip = 0;
                left = 0;
                return -1;
            }
            toSkip -= n;
        }
        if (left <= 0) {
            return -1;
        }
        if (dst.remaining() > left) {
            dst.limit(dst.position() + (int) left);
        }
        int n = readSome(dst);
        if (n > 0 && left != Long.MAX_VALUE) {
            left -= n;
        }
        if (n < 0) {
            endedEarly(left);
        }
        return n;
    }

    /** With an exact range, the channel's end before the range's end is an error. */
    private void endedEarly(long missing) throws EOFException {
        if (exact && missing > 0 && !cancelled.getAsBoolean()) {
            throw new EOFException("the channel ended " + missing + " bytes before the end of the range");
        }
    }

    private int readSome(ByteBuffer dst) throws IOException {
        for (; ; ) {
            int n = channel.read(dst);
            if (n != 0 || !dst.hasRemaining()) {
                if (n > 0) {
                    readiness.progressed(); // the next stall backs off from 1 µs again
                }
                return n;
            }
            if (!readiness.await()) { // cancelled while waiting
                return -1;
            }
        }
    }

    @Override
    public long remaining() {
        return left == Long.MAX_VALUE ? -1 : left;
    }

    @Override
    public void close() throws IOException {
        try {
            readiness.close();
        } finally {
            channel.close();
        }
    }

    /**
     * Closes a socket, pipe or other interruptible channel from the cancelling thread: a read
     * blocked on a silent peer ends at once with {@code AsynchronousCloseException} (R9). A
     * {@link FileChannel} is left to the drain: its reads never wait on a peer, and closing it
     * would wait for the read in flight.
     */
    @Override
    public void abort() {
        if (channel instanceof AbstractInterruptibleChannel && !(channel instanceof FileChannel)) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // cancelled anyway; the drain's close() finds the channel closed
            }
        }
    }
}
