package io.sluice.server.load;

import java.time.Duration;
import java.util.Locale;

/**
 * A closed-loop step's warm-up: the step's own load in slices, discarded, until its throughput
 * stops rising.
 *
 * <p>Adaptive because how long the JIT takes depends on lane and load (docs/results/2026-11-23-server/README.md).
 *
 * <p>Steady: at least {@code min} has passed and the last slice's rate is no more than
 * {@link #GROWTH} above the one before. Gives up at {@code max} and says so in the row's note.
 */
final class WarmUp {

    /** A slice whose rate is within this share above the previous one's says the server is warm. */
    static final double GROWTH = 0.05;
    static final Duration SLICE = Duration.ofSeconds(5);

    /** Runs the step's load for a slice and returns what it measured. */
    interface Slice {
        Traffic run(Duration length) throws Exception;
    }

    /** How the warm-up ended: {@code steady} is false when it stopped at the maximum. */
    record Outcome(double seconds, double lastRate, boolean steady) {

        /** For the row's note: "warm-up 25 s (steady at 23,666 req/s)". */
        String describe() {
            return String.format(Locale.ROOT, "warm-up %.0f s (%s at %,.0f req/s)", seconds,
                    steady ? "steady" : "stopped", lastRate);
        }
    }

    private WarmUp() {
    }

    /**
     * Runs slices of at most {@link #SLICE} until steady (after {@code min}) or {@code max}. Rates
     * and times count each slice as its nominal length (wrk runs exactly that long).
     */
    static Outcome run(Slice slice, Duration min, Duration max) throws Exception {
        Duration length = SLICE.compareTo(max) < 0 ? SLICE : max;
        double sliceSeconds = length.toMillis() / 1000.0;
        double seconds = 0;
        double previous = Double.NaN;
        while (true) {
            double rate = slice.run(length).ok() / sliceSeconds;
            seconds += sliceSeconds;
            boolean steady = !Double.isNaN(previous) && steady(previous, rate);
            if (seconds >= min.toMillis() / 1000.0 && steady) {
                return new Outcome(seconds, rate, true);
            }
            if (seconds >= max.toMillis() / 1000.0) {
                return new Outcome(seconds, rate, false);
            }
            previous = rate;
        }
    }

    /** Whether a slice at {@code current} req/s after one at {@code previous} says the rise has ended. */
    static boolean steady(double previous, double current) {
        return current <= previous * (1 + GROWTH);
    }
}
