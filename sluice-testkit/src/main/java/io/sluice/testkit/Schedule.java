package io.sluice.testkit;

/**
 * A rate in bytes per second as a function of time since an origin, as the paced ends
 * ({@link ThrottledChannel}, {@link ScheduledPublisher}) see it: when a transfer that starts at a
 * given time ends. Implementations are immutable and shareable.
 */
@FunctionalInterface
public interface Schedule {

    /**
     * When a transfer of {@code bytes} that starts at {@code startNanos} (nanoseconds since the
     * origin, not negative) ends, in nanoseconds since the origin, following the rate through its changes.
     */
    long finishNanos(long startNanos, long bytes);

    /** A constant rate of {@code bytesPerSecond}, positive. */
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
