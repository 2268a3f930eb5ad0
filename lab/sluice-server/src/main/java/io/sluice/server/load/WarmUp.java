package io.sluice.server.load;

import java.time.Duration;
import java.util.Locale;

/**
 * A closed-loop step's warm-up: the step's own load in slices, discarded, until at least {@code min} passed and
 * a slice's rate is at most {@link #GROWTH} above the one before (the JIT's time depends on lane and load), or
 * {@code max}, said in the row's note.
 */
final class WarmUp {

    static final double GROWTH = 0.05;
    static final Duration SLICE = Duration.ofSeconds(5);

    interface Slice {
        Traffic run(Duration length) throws Exception;
    }

    record Outcome(double seconds, double lastRate, boolean steady) {

        String describe() {
            return String.format(
                    Locale.ROOT,
                    "warm-up %.0f s (%s at %,.0f req/s)",
                    seconds,
                    steady ? "steady" : "stopped",
                    lastRate);
        }
    }

    private WarmUp() {}

    /** Runs slices of at most {@link #SLICE}; rates count a slice as its nominal length (wrk runs that long). */
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

    static boolean steady(double previous, double current) {
        return current <= previous * (1 + GROWTH);
    }
}
