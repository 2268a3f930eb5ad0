package io.sluice.testkit;

import java.util.Objects;

/**
 * One storage budget that any number of {@link ThrottledChannel}s draw on, as concurrent writers
 * compete for one disk: one {@link Pacer} books every channel's writes in turn, at the pace of a
 * {@link Schedule} that starts when the sink is made.
 *
 * <p><b>Threading:</b> channels from {@link #channel()} may be written from any number of threads
 * at once; the pacer is guarded by this object's monitor, everything else is immutable.
 */
public final class ThrottledSink {

    private final Pacer pacer;                   // guarded by this
    private final PacingClock clock;             // immutable: any thread
    private final int maxBytesPerWrite;          // immutable: any thread

    /**
     * A sink whose schedule starts now, its writers waiting in {@code clock}; one write call takes
     * at most {@code maxBytesPerWrite} (a write of more returns short).
     */
    public ThrottledSink(Schedule schedule, PacingClock clock, int maxBytesPerWrite) {
        if (maxBytesPerWrite <= 0) {
            throw new IllegalArgumentException("maxBytesPerWrite must be positive, was " + maxBytesPerWrite);
        }
        this.clock = Objects.requireNonNull(clock, "clock");
        this.pacer = new Pacer(Objects.requireNonNull(schedule, "schedule"), clock.nanoTime());
        this.maxBytesPerWrite = maxBytesPerWrite;
    }

    /** A new channel that discards its bytes at this sink's pace, on this sink's budget. */
    public ThrottledChannel channel() {
        return new ThrottledChannel(this);
    }

    /** The clock time at which the schedule started. */
    public long originNanos() {
        return pacer.originNanos();
    }

    Schedule schedule() {
        return pacer.schedule();
    }

    int maxBytesPerWrite() {
        return maxBytesPerWrite;
    }

    PacingClock clock() {
        return clock;
    }

    /** Books {@code bytes} asked for at {@code nowNanos}; returns when they are carried. */
    synchronized long reserve(long nowNanos, long bytes) {
        return pacer.reserve(nowNanos, bytes);
    }

    /** Reports how late a writer's sleep ended (see {@link Pacer#woke}). */
    synchronized void woke(long dueNanos, long wokeNanos) {
        pacer.woke(dueNanos, wokeNanos);
    }

    @Override
    public String toString() {
        return "ThrottledSink[" + pacer.schedule() + "]";
    }
}
