package io.sluice.lab;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Time for the paced ends: the real one parks (never spins); tests use a manual one whose sleeps
 * advance its time, so pacing is checked without waiting.
 */
public interface PacingClock {

    /** The current time in nanoseconds (any origin). */
    long nanoTime();

    /** Waits until {@code deadlineNanos} or until {@code stop} says so (checked whenever unparked). */
    void sleepUntil(long deadlineNanos, BooleanSupplier stop);

    static PacingClock system() {
        return SystemClock.INSTANCE;
    }

    /**
     * The real clock. Waits shorter than {@link #MIN_PARK_NANOS} return at once: parking for a few
     * microseconds oversleeps by tens, so the end runs ahead and pays it back at its next longer wait.
     */
    enum SystemClock implements PacingClock {
        INSTANCE;

        /** The shortest wait worth parking for. */
        public static final long MIN_PARK_NANOS = 200_000;

        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public void sleepUntil(long deadlineNanos, BooleanSupplier stop) {
            long left = deadlineNanos - System.nanoTime();
            if (left < MIN_PARK_NANOS) {
                return;
            }
            while ((left = deadlineNanos - System.nanoTime()) > 0 && !stop.getAsBoolean()) {
                LockSupport.parkNanos(this, left);
            }
        }
    }
}
