package io.sluice.server.load;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Scenario B's ramp: waits until the server has filled the slow clients' send queues, so that the measured load
 * meets their steady state, not their arrival. Settled: at least {@link #MIN_MILLIS} in, the summed send queue
 * grew by at most {@link #SLACK_SHARE} of its value (or {@link #SLACK_BYTES}) over the last
 * {@link #WINDOW_MILLIS}. Gives up at {@code maxMillis}; waits that long where the queues cannot be read.
 */
final class SlowClientRamp {

    static final long MIN_MILLIS = 1_000;
    static final long WINDOW_MILLIS = 1_000;
    static final long POLL_MILLIS = 250;
    static final double SLACK_SHARE = 0.01;
    static final long SLACK_BYTES = 1024 * 1024;

    /** How the ramp ended ({@code sendQueueBytes} -1: not measurable). */
    record Outcome(double seconds, long sendQueueBytes, boolean settled) {

        String describe() {
            if (sendQueueBytes < 0) {
                return String.format(Locale.ROOT, "ramp %.1f s (send queues not measurable here)", seconds);
            }
            return String.format(
                    Locale.ROOT,
                    "ramp %.1f s (send queues %s at %.0f MiB)",
                    seconds,
                    settled ? "settled" : "still growing",
                    sendQueueBytes / (1024.0 * 1024.0));
        }
    }

    private SlowClientRamp() {}

    static Outcome await(LongSupplier sendQueueBytes, long maxMillis) throws InterruptedException {
        long start = System.nanoTime();
        if (sendQueueBytes.getAsLong() < 0) {
            Thread.sleep(maxMillis);
            return new Outcome(maxMillis / 1000.0, -1, false);
        }
        Deque<long[]> samples = new ArrayDeque<>(); // {millis since start, bytes}, oldest first
        while (true) {
            long millis = (System.nanoTime() - start) / 1_000_000;
            long bytes = sendQueueBytes.getAsLong();
            samples.addLast(new long[] {millis, bytes});
            while (samples.size() > 1 && millis - samples.peekFirst()[0] > WINDOW_MILLIS) {
                samples.removeFirst();
            }
            long[] oldest = samples.peekFirst();
            boolean windowCovered = millis - oldest[0] >= WINDOW_MILLIS - POLL_MILLIS;
            if (millis >= MIN_MILLIS && windowCovered && settled(oldest[1], bytes)) {
                return new Outcome(millis / 1000.0, bytes, true);
            }
            if (millis >= maxMillis) {
                return new Outcome(millis / 1000.0, bytes, false);
            }
            Thread.sleep(POLL_MILLIS);
        }
    }

    /** Whether a queue that went from {@code before} to {@code now} over the window has stopped growing. */
    static boolean settled(long before, long now) {
        return now - before <= Math.max(SLACK_BYTES, (long) (before * SLACK_SHARE));
    }
}
