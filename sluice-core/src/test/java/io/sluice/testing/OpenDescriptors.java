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

    /** Open descriptors whose target lies under {@code dir}: the files a test's operations opened. */
    public static long countUnder(java.nio.file.Path dir) {
        java.nio.file.Path root = dir.toAbsolutePath().normalize();
        long open = 0;
        String[] entries = new File("/proc/self/fd").list();
        if (entries == null) {
            throw new IllegalStateException("/proc/self/fd is not readable: these tests need Linux");
        }
        for (String entry : entries) {
            try {
                java.nio.file.Path target = java.nio.file.Files.readSymbolicLink(
                        java.nio.file.Paths.get("/proc/self/fd", entry));
                if (target.startsWith(root)) {
                    open++;
                }
            } catch (java.io.IOException | UnsupportedOperationException closedMeanwhile) {
                // the descriptor was closed while we looked
            }
        }
        return open;
    }

    /** Waits until no descriptor points under {@code dir}; fails after 5 s naming the count. */
    public static void awaitNoneUnder(java.nio.file.Path dir) {
        awaitAtMost(0, () -> countUnder(dir), Duration.ofSeconds(5));
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
