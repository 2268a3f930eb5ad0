package io.sluice.lab;

/** A rate in bytes per second over time since an origin, for the paced ends; immutable and shareable. */
@FunctionalInterface
public interface Schedule {

    /** When a transfer of {@code bytes} starting at {@code startNanos} ends (nanoseconds since the origin). */
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
