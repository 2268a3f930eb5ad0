package io.sluice.testing;

import java.io.File;
import java.time.Duration;
import java.util.function.LongSupplier;

/** Counts this process's open file descriptors (Linux {@code /proc/self/fd}). */
public final class OpenDescriptors {

    private OpenDescriptors() {
    }

    public static long count() {
        String[] entries = new File("/proc/self/fd").list();
        if (entries == null) {
            throw new IllegalStateException("/proc/self/fd is not readable: these tests need Linux");
        }
        return entries.length;
    }

    /**
     * Waits until the count is back at or below {@code baseline} (channels close on the drain, just
     * after a stage completes) and fails with the count if it does not get there in 5 s.
     */
    public static void awaitAtMost(long baseline) {
        awaitAtMost(baseline, OpenDescriptors::count, Duration.ofSeconds(5));
    }

    static void awaitAtMost(long baseline, LongSupplier counter, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long now = counter.getAsLong();
        while (now > baseline) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("open file descriptors: " + now + ", expected at most " + baseline);
            }
            Thread.onSpinWait();
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
            now = counter.getAsLong();
        }
    }
}
