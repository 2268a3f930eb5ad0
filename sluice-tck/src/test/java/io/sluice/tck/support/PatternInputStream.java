package io.sluice.tck.support;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/** The {@link PatternChannel} as an {@link InputStream}: lazy {@link Pattern} bytes, closes counted. */
public final class PatternInputStream extends InputStream {

    private final long lengthBytes;
    private final AtomicInteger closes = new AtomicInteger();
    private final CountDownLatch closed = new CountDownLatch(1);
    private long position; // the reader's drain only

    public PatternInputStream(long lengthBytes) {
        this.lengthBytes = lengthBytes;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] bytes, int offset, int length) throws IOException {
        if (closes.get() > 0) {
            throw new IOException("stream closed");
        }
        if (length == 0) {
            return 0;
        }
        if (position >= lengthBytes) {
            return -1;
        }
        int n = (int) Math.min(length, lengthBytes - position);
        for (int i = 0; i < n; i++) {
            bytes[offset + i] = Pattern.at(position++);
        }
        return n;
    }

    @Override
    public void close() {
        closes.incrementAndGet();
        closed.countDown();
    }

    /** Opens when the stream is first closed. */
    public CountDownLatch closedLatch() {
        return closed;
    }

    public int closeCount() {
        return closes.get();
    }
}
