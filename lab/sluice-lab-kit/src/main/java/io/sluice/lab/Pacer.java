package io.sluice.lab;

/**
 * Turns a {@link Schedule} into deadlines for one end (a channel or a producer): a transfer starts
 * when the previous one ended, or now if the end has been idle since, and ends when the schedule
 * has carried its bytes. Oversleeping is paid back ({@link #woke}: the next transfer may start that
 * much before now, so the rate holds), idleness is not. One thread at a time.
 */
public final class Pacer {

    /** The most lateness paid back at once. */
    public static final long MAX_CREDIT_NANOS = 50_000_000;

    private final Schedule schedule; // immutable: any thread
    private final long originNanos; // immutable: any thread
    private long busyUntilNanos; // the end's thread: since origin, the previous transfer's end
    private long creditNanos; // the end's thread: lateness of the last sleep, not yet paid back

    /** A pacer whose schedule's time 0 lies at the clock time {@code originNanos}. */
    public Pacer(Schedule schedule, long originNanos) {
        this.schedule = schedule;
        this.originNanos = originNanos;
    }

    /** Books a transfer of {@code bytes} at {@code nowNanos}; returns when it ends (clock time). */
    public long reserve(long nowNanos, long bytes) {
        long now = Math.max(0, nowNanos - originNanos);
        long start = Math.max(busyUntilNanos, now - creditNanos);
        creditNanos = 0;
        busyUntilNanos = schedule.finishNanos(start, bytes);
        return originNanos + busyUntilNanos;
    }

    /** Books {@code bytes} right after the previous transfer (a producer's own work is not idleness). */
    public long reserveContinuing(long bytes) {
        creditNanos = 0;
        busyUntilNanos = schedule.finishNanos(busyUntilNanos, bytes);
        return originNanos + busyUntilNanos;
    }

    /** Marks the end as busy again from {@code nowNanos} after an idle spell (a producer without demand). */
    public void resume(long nowNanos) {
        busyUntilNanos = Math.max(busyUntilNanos, Math.max(0, nowNanos - originNanos));
    }

    /** Reports that a sleep meant to end at {@code dueNanos} ended at {@code wokeNanos}, clock time. */
    public void woke(long dueNanos, long wokeNanos) {
        creditNanos = Math.min(MAX_CREDIT_NANOS, Math.max(0, wokeNanos - dueNanos));
    }

    public long originNanos() {
        return originNanos;
    }
}
