package io.sluice.server.load;

import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.concurrent.locks.LockSupport;

/**
 * A shared storage end whose rate alternates between {@code fastBytesPerSecond} and
 * {@code slowBytesPerSecond} every {@code periodNanos}, starting fast. Every channel from
 * {@link #channel()} draws on the same budget, so concurrent uploads compete for it as they would
 * for one disk. A write blocks its thread for its share of time, as a slow disk does; time nobody
 * writes in is lost, as an idle disk's is.
 *
 * <p><b>Threading:</b> channels may be written from any number of threads at once; the budget
 * ({@code nextFreeNanos}) is guarded by this object's monitor, everything else is immutable.
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

    /** The {@link System#nanoTime()} at which the first (fast) period began. */
    long startNanos() {
        return startNanos;
    }

    /** Whether the sink is in a fast period at {@code nanos}. */
    boolean fastAt(long nanos) {
        return periodAt(nanos) % 2 == 0;
    }

    /** The index of the period at {@code nanos} (even: fast, odd: slow). */
    long periodAt(long nanos) {
        return (nanos - startNanos) / periodNanos;
    }

    /** The sink's rate at {@code nanos}, in bytes per second. */
    double rateAt(long nanos) {
        return fastAt(nanos) ? fastBytesPerSecond : slowBytesPerSecond;
    }

    private long reserve(int bytes) {
        synchronized (this) {
            long now = System.nanoTime();
            long start = Math.max(now, nextFreeNanos);
            nextFreeNanos = start + (long) (bytes / rateAt(start) * 1e9);
            return nextFreeNanos;
        }
    }

    /** A new channel on this sink's budget; its {@code write} blocks for the bytes' share of time. */
    WritableByteChannel channel() {
        return new WritableByteChannel() {
            private volatile boolean open = true;

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
