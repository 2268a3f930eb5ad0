package io.sluice.server.load;

import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.concurrent.locks.LockSupport;

/**
 * A shared storage end whose rate alternates between {@code slowBytesPerSecond} and
 * {@code fastBytesPerSecond} every {@code periodNanos}, starting fast. Every channel from
 * {@link #channel()} draws on the same budget, so concurrent uploads compete for it as they would
 * for one disk. A write blocks its thread for its share of time, as a slow disk does.
 */
final class ThrottledSink {

    private static final int MAX_WRITE_BYTES = 64 * 1024;

    private final long startNanos = System.nanoTime();
    private final double slowBytesPerSecond;
    private final double fastBytesPerSecond;
    private final long periodNanos;
    private long nextFreeNanos = startNanos; // guarded by this

    ThrottledSink(double slowBytesPerSecond, double fastBytesPerSecond, long periodNanos) {
        this.slowBytesPerSecond = slowBytesPerSecond;
        this.fastBytesPerSecond = fastBytesPerSecond;
        this.periodNanos = periodNanos;
    }

    /** Whether the sink is in a fast period at {@code nanos}. */
    boolean fastAt(long nanos) {
        return ((nanos - startNanos) / periodNanos) % 2 == 0;
    }

    /** The index of the period at {@code nanos} (even: fast, odd: slow). */
    long periodAt(long nanos) {
        return (nanos - startNanos) / periodNanos;
    }

    private long reserve(int bytes) {
        synchronized (this) {
            long now = System.nanoTime();
            long start = Math.max(now, nextFreeNanos);
            double rate = fastAt(start) ? fastBytesPerSecond : slowBytesPerSecond;
            nextFreeNanos = start + (long) (bytes / rate * 1e9);
            return nextFreeNanos;
        }
    }

    WritableByteChannel channel() {
        return new WritableByteChannel() {
            private boolean open = true;

            @Override
            public int write(ByteBuffer source) {
                int bytes = Math.min(source.remaining(), MAX_WRITE_BYTES);
                long until = reserve(bytes);
                for (long wait = until - System.nanoTime(); wait > 0; wait = until - System.nanoTime()) {
                    LockSupport.parkNanos(wait);
                }
                source.position(source.position() + bytes); // the bytes are "stored": dropped
                return bytes;
            }

            @Override
            public boolean isOpen() {
                return open;
            }

            @Override
            public void close() {
                open = false;
            }
        };
    }
}
