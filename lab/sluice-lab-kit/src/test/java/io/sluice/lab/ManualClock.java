package io.sluice.lab;

import java.util.function.BooleanSupplier;

/** A clock whose sleeps advance it at once: pacing is checked without waiting. */
final class ManualClock implements PacingClock {

    private long now;
    private long sleptNanos;

    @Override
    public long nanoTime() {
        return now;
    }

    @Override
    public void sleepUntil(long deadlineNanos, BooleanSupplier stop) {
        if (deadlineNanos > now && !stop.getAsBoolean()) {
            sleptNanos += deadlineNanos - now;
            now = deadlineNanos;
        }
    }

    void advance(long nanos) {
        now += nanos;
    }

    long sleptNanos() {
        return sleptNanos;
    }
}
