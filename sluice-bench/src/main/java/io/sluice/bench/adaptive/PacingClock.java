package io.sluice.bench.adaptive;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Time for the paced ends: the real one parks (never spins); tests use a manual one whose sleeps
 * advance its time, so pacing is checked without waiting.
 */
public interface PacingClock {

    /** The current time in nanoseconds (any origin). */
    long nanoTime();

    /**
     * Waits until {@code deadlineNanos} or until {@code stop} says so (checked whenever the
     * waiting thread is unparked).
     */
    void sleepUntil(long deadlineNanos, BooleanSupplier stop);

    /** {@link System#nanoTime()} and {@link LockSupport#parkNanos}. */
    static PacingClock system() {
        return SystemClock.INSTANCE;
    }

    /** The real clock. */
    enum SystemClock implements PacingClock {
        INSTANCE;

        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public void sleepUntil(long deadlineNanos, BooleanSupplier stop) {
            long left;
            while ((left = deadlineNanos - System.nanoTime()) > 0 && !stop.getAsBoolean()) {
                LockSupport.parkNanos(this, left);
            }
        }
    }
}
