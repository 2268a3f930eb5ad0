package io.sluice.bench.adaptive;

import io.sluice.WriteOptions;
import io.sluice.demand.Demand;
import io.sluice.lab.ScheduledPublisher;

import java.util.List;
import java.util.Locale;

/**
 * Scenario C, the demand scenario with many writers: {@code streams} concurrent writes of {@code bytesEach}
 * bytes each into one sink that alternates {@value #FAST_SINK_MIB} and {@value #SLOW_SINK_MIB} MiB/s every
 * {@code periodMillis}, as uploads compete for one disk. Each strategy of {@link #strategies()} runs on both
 * kinds of {@link Producers}; {@code rounds} is how often every strategy runs, in turn, within one repetition:
 * a repetition's throughput is its fastest round's, every other figure is over all its rounds ({@link #SMOKE}
 * runs two, so that a second of load from another build cannot decide a target alone).
 *
 * @param scale what the results call this size: {@code smoke} or {@code full}
 * @param streams the concurrent writes
 * @param bytesEach what each write carries
 * @param periodMillis how long the sink stays at one rate
 * @param rounds runs of every strategy per repetition
 */
public record SharedSink(String scale, int streams, long bytesEach, long periodMillis, int rounds) {

    /** CI's size: 8 x 32 MiB, 500 ms periods, two rounds (about a minute on 2 cores). */
    public static final SharedSink SMOKE = new SharedSink("smoke", 8, 32L << 20, 500, 2);
    /** The published size: 8 x 256 MiB, 2 s periods (about three minutes a repetition on 2 cores). */
    public static final SharedSink FULL = new SharedSink("full", 8, 256L << 20, 2000, 1);

    static final double FAST_SINK_MIB = 200;
    static final double SLOW_SINK_MIB = 20;
    /** What one paced client sends, MiB/s: eight of them outrun the slow sink and not the fast one. */
    static final double PRODUCER_MIB_PER_SECOND = 24;
    /** What a client may have sent ahead while not being read: Linux's default {@code tcp_rmem} (128 KiB). */
    static final long CLIENT_BURST_BYTES = 128 * 1024;
    /** The most one write call hands the sink. */
    static final int MAX_WRITE_BYTES = 64 * 1024;
    /** The control strategy's name: every item at once, and no byte bound either. */
    static final String CONTROL = "all-at-once";

    /** What writes into the sink. */
    public enum Producers {
        /** Each write a client sending {@value SharedSink#PRODUCER_MIB_PER_SECOND} MiB/s in 8 KiB chunks (every target). */
        PACED("paced", 8 * 1024),
        /** Each write a file read as fast as the page cache gives it, in 64 KiB chunks (targets on memory). */
        UNPACED("unpaced", 64 * 1024);

        final String label; // in the results and on the pages
        final int chunkBytes; // one item

        Producers(String label, int chunkBytes) {
            this.label = label;
            this.chunkBytes = chunkBytes;
        }
    }

    public SharedSink {
        if (streams <= 0 || bytesEach <= 0 || periodMillis <= 0 || rounds <= 0) {
            throw new IllegalArgumentException("streams, bytesEach, periodMillis and rounds must be positive: "
                    + streams + ", " + bytesEach + ", " + periodMillis + ", " + rounds);
        }
    }

    /** The size called {@code name}: {@code smoke} or {@code full}. */
    public static SharedSink named(String name) {
        return List.of(SMOKE, FULL).stream()
                .filter(size -> size.scale().equals(name))
                .findFirst()
                .orElseThrow(
                        () -> new IllegalArgumentException("shared-sink scale must be smoke or full, was " + name));
    }

    /**
     * In the order they run and are tabled: adaptive first, the control last. These fixed windows, not the
     * single-stream scenarios', because eight writers share the sink: 4, 16 and 64 items of 8 KiB bracket one
     * writer's share of the fast sink's 200 MiB/s.
     */
    static List<StrategyCase> strategies() {
        return List.of(
                new StrategyCase("adaptive", Demand.adaptive()),
                new StrategyCase("fixed(4,1)", Demand.fixed(4, 1)),
                new StrategyCase("fixed(16,4)", Demand.fixed(16, 4)),
                new StrategyCase("fixed(64,16)", Demand.fixed(64, 16)),
                new StrategyCase(CONTROL, Demand.unbounded()));
    }

    /** A strategy's write options: the control lifts the byte bound too, every other keeps the default one. */
    static WriteOptions options(StrategyCase strategy) {
        WriteOptions options = WriteOptions.defaults().withDemand(strategy.strategy());
        return strategy.name().equals(CONTROL) ? options.withMaxQueuedBytes(Long.MAX_VALUE / 2) : options;
    }

    /** The sink: fast in even periods, slow in odd ones, from its start. */
    RateSchedule sink() {
        return RateSchedule.stepsMiBps(FAST_SINK_MIB, SLOW_SINK_MIB, periodMillis);
    }

    long periodNanos() {
        return periodMillis * 1_000_000L;
    }

    /** This size with {@code bytes} per write: the warm-up's. */
    SharedSink withBytesEach(long bytes) {
        return new SharedSink(scale, streams, bytes, periodMillis, 1);
    }

    /**
     * Stream 0 as a single-stream scenario, lasting {@code durationNanos}: what its window's response and its
     * chart are read against (its producer's rate, the shared sink's schedule, its item size, its byte bound).
     */
    Scenario streamZero(Producers producers, StrategyCase strategy, long durationNanos) {
        return new Scenario(
                "shared-sink-" + producers.label,
                producers == Producers.PACED
                        ? RateSchedule.constantMiBps(PRODUCER_MIB_PER_SECOND)
                        : RateSchedule.unlimited(),
                sink(),
                producers.chunkBytes,
                Math.max(1, durationNanos),
                producers == Producers.PACED ? ScheduledPublisher.Emission.TIMER : ScheduledPublisher.Emission.ASYNC,
                options(strategy).maxQueuedBytes());
    }

    /** The best aggregate the paced producers and the sink together allow over the first {@code seconds}. */
    double idealPacedMibPerSecond(double seconds) {
        double producers = streams * PRODUCER_MIB_PER_SECOND;
        double period = periodMillis / 1e3;
        double mib = 0;
        for (int k = 0; k * period < seconds; k++) {
            double length = Math.min(period, seconds - k * period);
            mib += length * Math.min(producers, k % 2 == 0 ? FAST_SINK_MIB : SLOW_SINK_MIB);
        }
        return mib / seconds;
    }

    /** One line naming the set-up, for the console and the report. */
    String describe() {
        return String.format(
                Locale.ROOT,
                "scenario C (%s): %d x %d MiB into one sink alternating %.0f/%.0f MiB/s every %d ms, %d round(s)"
                        + " of every strategy per repetition",
                scale,
                streams,
                bytesEach >> 20,
                FAST_SINK_MIB,
                SLOW_SINK_MIB,
                periodMillis,
                rounds);
    }
}
