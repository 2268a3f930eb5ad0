package io.sluice.tck.support;

import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** An output stream that keeps nothing: it counts bytes and closes, and refuses writes once closed. */
public final class CountingOutputStream extends OutputStream {

    private final AtomicLong bytes = new AtomicLong();
    private final AtomicInteger closes = new AtomicInteger();
    private final CountDownLatch closed = new CountDownLatch(1);

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] data, int offset, int length) throws IOException {
        if (closes.get() > 0) {
            throw new IOException("stream closed");
        }
        bytes.addAndGet(length);
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
