package io.sluice.internal.read;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An {@link InputStream}, limited to a range (skipping {@code offset} bytes first). Does not fill
 * chunks ({@link ReadSource#fillsChunks()}). Drain-confined, except {@link #abort()}.
 */
public final class StreamReadSource implements ReadSource {

    private final InputStream stream; // read by the drain; closed once, by close() or abort()
    private final AtomicBoolean closed =
            new AtomicBoolean(); // any thread: close() (drain) and abort() race to close once
    private long toSkip; // drain-confined: bytes still to skip
    private long left; // drain-confined: bytes left; MAX_VALUE: open-ended

    private final boolean exact; // ending before the range's end is an error

    public StreamReadSource(InputStream stream, long offset, long length) {
        this(stream, offset, length, false);
    }

    /** As above; with {@code exact}, a stream that ends before the range's end fails the read. */
    public StreamReadSource(InputStream stream, long offset, long length, boolean exact) {
        this.stream = stream;
        this.toSkip = offset;
        this.left = length;
        this.exact = exact && length != Long.MAX_VALUE;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        if (toSkip > 0 && !skipLeadingBytes()) {
            return -1;
        }
        if (left <= 0) {
            return -1;
        }
        int want = (int) Math.min(dst.remaining(), left);
        int n;
        if (dst.hasArray()) {
            n = stream.read(dst.array(), dst.arrayOffset() + dst.position(), want);
            if (n > 0) {
                dst.position(dst.position() + n);
            }
        } else {
            byte[] bytes = new byte[want];
            n = stream.read(bytes, 0, want);
            if (n > 0) {
                dst.put(bytes, 0, n);
            }
        }
        if (n > 0 && left != Long.MAX_VALUE) {
            left -= n;
        }
        if (n < 0) {
            endedEarly(left);
        }
        return n == 0 ? readOneByte(dst) : n;
    }

    /** With an exact range, the stream's end before the range's end is an error. */
    private void endedEarly(long missing) throws EOFException {
        if (exact && missing > 0) {
            throw new EOFException("the stream ended " + missing + " bytes before the end of the range");
        }
    }

    /** Reads and drops {@code toSkip} bytes; false if the stream ends first. */
    private boolean skipLeadingBytes() throws IOException {
        byte[] scratch = new byte[(int) Math.min(toSkip, 8 * 1024)];
        while (toSkip > 0) {
            int n = stream.read(scratch, 0, (int) Math.min(toSkip, scratch.length));
            if (n < 0) {
                endedEarly(toSkip + left);
                toSkip = 0;
                left = 0;
                return false;
            }
            toSkip -= n;
        }
        return true;
    }

    /** A stream may return 0 for a non-empty request; block for one byte instead of spinning. */
    private int readOneByte(ByteBuffer dst) throws IOException {
        int nextByte = stream.read();
        if (nextByte < 0) {
            endedEarly(left);
            return -1;
        }
        dst.put((byte) nextByte);
        if (left != Long.MAX_VALUE) {
            left--;
        }
        return 1;
    }

    @Override
    public long remaining() {
        return left == Long.MAX_VALUE ? -1 : left;
    }

    @Override
    public void close() throws IOException {
        if (closed.compareAndSet(false, true)) {
            stream.close();
        }
    }

    /**
     * Closes the stream from the cancelling thread, the one way {@code java.io} offers to end a
     * read blocked on a silent peer (a socket's or a process's stream then throws: R9). The stream
     * is closed once, by whichever of this and the drain's {@link #close()} comes first.
     */
    @Override
    public void abort() {
        try {
            close();
        } catch (IOException ignored) {
            // cancelled anyway
        }
    }
}
