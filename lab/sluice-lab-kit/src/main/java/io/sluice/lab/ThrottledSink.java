package io.sluice.lab;

import java.util.Objects;

/**
 * One storage budget that any number of {@link ThrottledChannel}s draw on from any threads, as
 * concurrent writers compete for one disk: one {@link Pacer}, guarded by this object's monitor,
 * books every channel's writes in turn, at the pace of a {@link Schedule} that starts now.
 */
public final class ThrottledSink {

    private final Pacer pacer; // guarded by this
    final Schedule schedule; // immutable: any thread
    final PacingClock clock; // immutable: any thread
    final int maxBytesPerWrite; // immutable: any thread

    /** A sink whose schedule starts now; one write call takes at most {@code maxBytesPerWrite}. */
    public ThrottledSink(Schedule schedule, PacingClock clock, int maxBytesPerWrite) {
        if (maxBytesPerWrite <= 0) {
            throw new IllegalArgumentException("maxBytesPerWrite must be positive, was " + maxBytesPerWrite);
        }
        this.schedule = Objects.requireNonNull(schedule, "schedule");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.pacer = new Pacer(schedule, clock.nanoTime());
        this.maxBytesPerWrite = maxBytesPerWrite;
    }

    /** A new channel on this sink's budget. */
    public ThrottledChannel channel() {
        return new ThrottledChannel(this);
    }

    /** The clock time at which the schedule started. */
    public long originNanos() {
        return pacer.originNanos();
    }

    synchronized long reserve(long nowNanos, long bytes) {
        return pacer.reserve(nowNanos, bytes);
    }

    synchronized void woke(long dueNanos, long wokeNanos) {
        pacer.woke(dueNanos, wokeNanos);
    }

    @Override
    public String toString() {
        return "ThrottledSink[" + schedule + "]";
    }
}
