package io.sluice.server.load;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Scenario B's ramp: after the slow clients connected, waits until the server has filled their
 * kernel send queues, so that the measured load meets the slow clients' steady state and not the
 * burst of their arrival.
 *
 * <p>The server fills each slow reader's socket send buffer first (docs/results/2026-11-23-server/README.md).
 *
 * <p>Settled: at least {@link #MIN_MILLIS} after the last client connected, the summed send queue
 * grew by no more than {@link #SLACK_SHARE} of its value (or {@link #SLACK_BYTES}, whichever is
 * larger) over the last {@link #WINDOW_MILLIS}. A server that dies during the ramp (C-unbounded)
 * settles at once: its queue stops growing. Gives up at {@code maxMillis} and says so. Where the
 * kernel tables cannot be read (not Linux) it waits {@code maxMillis}.
 */
final class SlowClientRamp {

    static final long MIN_MILLIS = 1_000;
    static final long WINDOW_MILLIS = 1_000;
    static final long POLL_MILLIS = 250;
    static final double SLACK_SHARE = 0.01;
    static final long SLACK_BYTES = 1024 * 1024;

    /**
     * How the ramp ended: after {@code seconds}, with {@code sendQueueBytes} queued (-1: not
     * measurable); {@code settled} is false when it gave up or could not measure.
     */
    record Outcome(double seconds, long sendQueueBytes, boolean settled) {

        /** For the scenario's note: "ramp 3.2 s (send queues settled at 812 MiB)". */
        String describe() {
            if (sendQueueBytes < 0) {
                return String.format(Locale.ROOT, "ramp %.1f s (send queues not measurable here)", seconds);
            }
            return String.format(Locale.ROOT, "ramp %.1f s (send queues %s at %.0f MiB)", seconds,
                    settled ? "settled" : "still growing", sendQueueBytes / (1024.0 * 1024.0));
        }
    }

    private SlowClientRamp() {
    }

    /**
     * Polls {@code sendQueueBytes} (a {@link SendQueueProbe}; -1 when it cannot measure) until the
     * send queues settle or {@code maxMillis} passed.
     */
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
