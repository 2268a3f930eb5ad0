package io.sluice.testkit;

/**
 * Turns a {@link Schedule} into deadlines for one end (a channel or a producer): each
 * {@link #reserve} of {@code bytes} starts when the previous transfer ended, or now if the end
 * has been idle since, and ends when the schedule has carried the bytes.
 *
 * <p>Oversleeping is paid back, idleness is not: {@link #woke} tells the pacer how late the
 * previous sleep ended (park latency, a busy machine), and the next transfer may start that much
 * before now, so the schedule's rate holds; the time the caller spent elsewhere (the writer
 * waiting for data) earns nothing. The model never oversleeps. Not thread-safe: one end, one
 * thread at a time.
 */
public final class Pacer {

    /** The most lateness paid back at once. */
    public static final long MAX_CREDIT_NANOS = 50_000_000;

    private final Schedule schedule;              // immutable: any thread
    private final long originNanos;               // immutable: any thread
    private long busyUntilNanos;                  // the end's thread: since origin, the previous transfer's end
    private long creditNanos;                     // the end's thread: lateness of the last sleep, not yet paid back

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

    /**
     * Books a transfer of {@code bytes} that follows the previous one without a gap: for an end
     * that has been busy all along (a producer with demand), whose time between transfers is its
     * own work, not idleness. Returns when it ends (clock time).
     */
    public long reserveContinuing(long bytes) {
        creditNanos = 0;
        busyUntilNanos = schedule.finishNanos(busyUntilNanos, bytes);
        return originNanos + busyUntilNanos;
    }

    /** Marks the end as busy again from {@code nowNanos} after an idle spell (a producer without demand). */
    public void resume(long nowNanos) {
        busyUntilNanos = Math.max(busyUntilNanos, Math.max(0, nowNanos - originNanos));
    }

    /**
     * Reports that a sleep meant to end at {@code dueNanos} (the deadline, or the call's start if
     * that was later) ended at {@code wokeNanos}, clock time.
     */
    public void woke(long dueNanos, long wokeNanos) {
        creditNanos = Math.min(MAX_CREDIT_NANOS, Math.max(0, wokeNanos - dueNanos));
    }

    /** The clock time at which the schedule's time 0 lies. */
    public long originNanos() {
        return originNanos;
    }

    /** The schedule this pacer follows. */
    public Schedule schedule() {
        return schedule;
    }
}
