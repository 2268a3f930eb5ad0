package io.sluice.server.load;

import java.util.concurrent.TimeUnit;

/**
 * How big a scenario C run is: {@link #FULL} is the measured run, the one the full gates' absolute
 * figures are set for (8 uploads of 256 MiB, 2 s periods), {@link #SMOKE} the CI one (8 of 32 MiB, 0.5 s periods: about 2.5 s per strategy and case, with
 * two fast-to-slow switches for the paced producers).
 *
 * @param name smoke or full
 * @param uploads concurrent streams into the one sink
 * @param bytesEach bytes per stream
 * @param periodNanos how long the sink stays fast, then slow
 * @param rounds how often every strategy runs, interleaved; throughput is the best round's, every
 *     other measure is taken over all rounds (smoke: 2, so that a second of load from another build
 *     on a shared CI machine cannot decide a gate alone)
 */
record DemandScale(String name, int uploads, long bytesEach, long periodNanos, int rounds) {

    static final DemandScale SMOKE = new DemandScale("smoke", 8, 32L * 1024 * 1024,
            TimeUnit.MILLISECONDS.toNanos(500), 2);
    static final DemandScale FULL = new DemandScale("full", 8, 256L * 1024 * 1024,
            TimeUnit.MILLISECONDS.toNanos(2000), 1);

    boolean full() {
        return this == FULL;
    }

    static DemandScale parse(String name) {
        return switch (name) {
            case "smoke" -> SMOKE;
            case "full" -> FULL;
            default -> throw new IllegalArgumentException("scale must be smoke or full, was " + name);
        };
    }
}
