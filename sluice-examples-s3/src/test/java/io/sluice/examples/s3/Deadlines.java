package io.sluice.examples.s3;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waiting for what another thread or server does, by polling against a deadline instead of sleeping blindly. */
final class Deadlines {

    private Deadlines() {}

    /** Returns once {@code condition} holds; fails with {@code what} if it still does not after {@code limit}. */
    static void awaitTrue(String what, Duration limit, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not within " + limit + ": " + what);
            }
            Thread.sleep(20);
        }
    }
}
