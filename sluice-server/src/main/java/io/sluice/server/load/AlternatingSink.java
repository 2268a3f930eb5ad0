package io.sluice.server.load;

import io.sluice.testkit.PacingClock;
import io.sluice.testkit.ThrottledChannel;
import io.sluice.testkit.ThrottledSink;

/**
 * Scenario C's storage: one {@link ThrottledSink} whose rate alternates between
 * {@code fastBytesPerSecond} and {@code slowBytesPerSecond} every {@code periodNanos}, starting
 * fast. Every channel from {@link #channel()} draws on the same budget, so concurrent uploads
 * compete for it as they would for one disk; a write takes at most {@link #MAX_WRITE_BYTES}. This
 * class adds the phase queries {@link WindowTrace} needs.
 *
 * <p><b>Threading:</b> immutable; the channels may be written from any number of threads at once
 * (the sink locks its budget).
 */
final class AlternatingSink {

    static final int MAX_WRITE_BYTES = 64 * 1024;

    private final double slowBytesPerSecond;     // immutable: any thread
    private final double fastBytesPerSecond;     // immutable: any thread
    private final long periodNanos;              // immutable: any thread
    private final ThrottledSink sink;            // immutable; locks its own budget

    AlternatingSink(double slowBytesPerSecond, double fastBytesPerSecond, long periodNanos) {
        this.slowBytesPerSecond = slowBytesPerSecond;
        this.fastBytesPerSecond = fastBytesPerSecond;
        this.periodNanos = periodNanos;
        // The rate at a transfer's start carries all of it (a write is short against a period).
        this.sink = new ThrottledSink((start, bytes) -> start + (long) (bytes / rateAtOffset(start) * 1e9),
                PacingClock.system(), MAX_WRITE_BYTES);
    }

    /** The {@link System#nanoTime()} at which the first (fast) period began. */
    long startNanos() {
        return sink.originNanos();
    }

    /** Whether the sink is in a fast period at {@code nanos}. */
    boolean fastAt(long nanos) {
        return periodAt(nanos) % 2 == 0;
    }

    /** The index of the period at {@code nanos} (even: fast, odd: slow). */
    long periodAt(long nanos) {
        return (nanos - startNanos()) / periodNanos;
    }

    /** The sink's rate at {@code nanos}, in bytes per second. */
    double rateAt(long nanos) {
        return rateAtOffset(nanos - startNanos());
    }

    private double rateAtOffset(long sinceStart) {
        return (sinceStart / periodNanos) % 2 == 0 ? fastBytesPerSecond : slowBytesPerSecond;
    }

    /** A new channel on this sink's budget; its {@code write} blocks for the bytes' share of time. */
    ThrottledChannel channel() {
        return sink.channel();
    }
}
