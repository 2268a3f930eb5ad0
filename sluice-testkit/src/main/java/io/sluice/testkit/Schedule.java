package io.sluice.testkit;

/**
 * A rate in bytes per second as a function of time since an origin, as the paced ends
 * ({@link ThrottledChannel}, {@link ScheduledPublisher}) see it: when a transfer that starts at a
 * given time ends. Implementations are immutable and shareable.
 */
@FunctionalInterface
public interface Schedule {

    /**
     * When a transfer of {@code bytes} that starts at {@code startNanos} (since the origin, not
     * negative) ends, following the rate through its changes.
     *
     * @param startNanos when the transfer starts, in nanoseconds since the origin
     * @param bytes the bytes to carry
     * @return when it ends, in nanoseconds since the origin
     */
    long finishNanos(long startNanos, long bytes);

    /**
     * A constant rate.
     *
     * @param bytesPerSecond the rate, positive
     * @return the schedule
     */
    static Schedule constant(double bytesPerSecond) {
        if (!(bytesPerSecond > 0)) {
            throw new IllegalArgumentException("rate must be positive, was " + bytesPerSecond);
        }
        return new Schedule() {
            @Override
            public long finishNanos(long startNanos, long bytes) {
                return startNanos + (long) Math.ceil(bytes * 1e9 / bytesPerSecond);
            }

            @Override
            public String toString() {
                return bytesPerSecond + " B/s";
            }
        };
    }
}
