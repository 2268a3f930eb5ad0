package io.sluice.server.load;

import io.sluice.ByteChannels;
import io.sluice.ReactiveFile;
import io.sluice.ReadOptions;
import io.sluice.WriteOptions;
import io.sluice.demand.Demand;
import io.sluice.demand.DemandStrategy;
import io.sluice.lab.DemandRun;
import io.sluice.lab.Load;
import io.sluice.lab.PacingClock;
import io.sluice.lab.Schedule;
import io.sluice.lab.ScheduledPublisher;
import io.sluice.lab.ThrottledChannel;
import io.sluice.lab.ThrottledSink;
import org.reactivestreams.Publisher;

import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * Scenario C, in process: {@code uploads} concurrent writes into one {@link ThrottledSink} alternating 200 and
 * 20 MiB/s, once per demand strategy, each run a {@link DemandRun}, in two cases: paced producers (gated; each
 * client sends {@code --rate-mib} MiB/s in {@code --chunk-kib} KiB chunks through a timed
 * {@link ScheduledPublisher}) and unpaced ones (reported; each reads a file as fast as the page cache gives it).
 * {@code --series FILE} writes stream 0's window over time as CSV ({@link WindowTrace#CSV_HEADER}, repeat 1's);
 * {@code --repeats N} runs both cases N times, every strategy in turn, and {@link DemandGates} judges all of them.
 * Set-up, measures and why: {@code lab/results/2026-11-22-scenario-c/README.md}.
 *
 * <pre>java -cp sluice-server.jar io.sluice.server.load.DemandScenario [smoke|full] [--series FILE]
 *     [--rate-mib R] [--chunk-kib K] [--repeats N]</pre>
 */
public final class DemandScenario {

    static final double MIB = 1024.0 * 1024.0;
    static final double FAST_SINK_MIB = 200;
    static final double SLOW_SINK_MIB = 20;
    static final double DEFAULT_PRODUCER_MIB_PER_SECOND = 24;
    static final int DEFAULT_CHUNK_BYTES = 8 * 1024;
    /** What a client may have sent ahead while not being read: Linux's default tcp_rmem (128 KiB). */
    static final long CLIENT_BURST_BYTES = 128 * 1024;

    private static final int UNPACED_CHUNK_BYTES = 64 * 1024;
    /** The most one write call hands the sink. */
    static final int MAX_WRITE_BYTES = 64 * 1024;

    private DemandScenario() {}

    /**
     * How big a run is: {@link #FULL} the measured one, {@link #SMOKE} CI's. {@code rounds}: how often every
     * strategy runs, interleaved; throughput is the best round's, every other measure over all rounds (smoke: 2,
     * so that a second of load from another build on a shared machine cannot decide a gate alone).
     */
    record Size(String name, int uploads, long bytesEach, long periodNanos, int rounds) {
        static final Size SMOKE = new Size("smoke", 8, 32L << 20, TimeUnit.MILLISECONDS.toNanos(500), 2);
        static final Size FULL = new Size("full", 8, 256L << 20, TimeUnit.MILLISECONDS.toNanos(2000), 1);
    }

    /** A run's settings; {@code series} is null when no CSV is written. */
    record Settings(Size scale, double producerMibPerSecond, int chunkBytes, Path series, int repeats) {

        /** The best aggregate the producers and the sink together allow over the first {@code seconds}. */
        double idealPacedMibPerSecond(double seconds) {
            double producers = scale.uploads() * producerMibPerSecond;
            double period = scale.periodNanos() / 1e9;
            double mib = 0;
            for (int k = 0; k * period < seconds; k++) {
                double length = Math.min(period, seconds - k * period);
                mib += length
                        * Math.min(producers, sinkBytesPerSecond(k * scale.periodNanos(), scale.periodNanos()) / MIB);
            }
            return mib / seconds;
        }
    }

    /** One strategy's run in one case. */
    record Result(
            String strategy,
            double mibPerSecond,
            double seconds,
            long peakQueuedBytes,
            List<WindowTrace.Switch> switches,
            long smallestWindow,
            long largestWindow,
            double[] windowTime,
            boolean outOfMemory) {

        /** Stream 0's mean window over fast-period time, in items. */
        double meanFastWindow() {
            return windowTime[1] == 0 ? 0 : windowTime[0] / windowTime[1];
        }

        /** Stream 0's mean window over slow-period time, in items. */
        double meanSlowWindow() {
            return windowTime[3] == 0 ? 0 : windowTime[2] / windowTime[3];
        }

        /** Two rounds of one strategy: the faster round's throughput, every other measure over both. */
        Result combine(Result other) {
            Result faster = other.mibPerSecond > mibPerSecond ? other : this;
            List<WindowTrace.Switch> both = new ArrayList<>(switches);
            both.addAll(other.switches);
            double[] time = IntStream.range(0, windowTime.length)
                    .mapToDouble(index -> windowTime[index] + other.windowTime[index])
                    .toArray();
            return new Result(
                    strategy,
                    faster.mibPerSecond,
                    faster.seconds,
                    Math.max(peakQueuedBytes, other.peakQueuedBytes),
                    both,
                    Math.min(smallestWindow, other.smallestWindow),
                    Math.max(largestWindow, other.largestWindow),
                    time,
                    outOfMemory || other.outOfMemory);
        }

        /** Switches after which stream 0's window shrank. */
        long shrunk() {
            return switches.stream().filter(WindowTrace.Switch::shrank).count();
        }

        /** Switches at which stream 0's window stood above the smallest it reached in the run. */
        long aboveFloor() {
            return switches.stream()
                    .filter(windowSwitch -> windowSwitch.windowAtFastEnd() > smallestWindow)
                    .count();
        }

        /** Switches at which it stood above that floor and shrank after. */
        long shrunkFromAboveFloor() {
            return switches.stream()
                    .filter(windowSwitch -> windowSwitch.windowAtFastEnd() > smallestWindow && windowSwitch.shrank())
                    .count();
        }
    }

    /** Runs scenario C (arguments as in the class comment) and exits 1 if a gate failed. */
    public static void main(String[] args) throws Exception {
        boolean named = args.length > 0 && !args[0].startsWith("--");
        Size scale = !named
                ? Size.SMOKE
                : Stream.of(Size.SMOKE, Size.FULL)
                        .filter(size -> size.name().equals(args[0]))
                        .findFirst()
                        .orElseThrow(() -> new IllegalArgumentException("scale must be smoke or full, was " + args[0]));
        Map<String, String> flags = LoadMain.flags(
                List.of(args).subList(named ? 1 : 0, args.length),
                Map.of(
                        "--series",
                        "",
                        "--rate-mib",
                        Double.toString(DEFAULT_PRODUCER_MIB_PER_SECOND),
                        "--chunk-kib",
                        Integer.toString(DEFAULT_CHUNK_BYTES / 1024),
                        "--repeats",
                        "1"));
        Path series = flags.get("--series").isEmpty() ? null : Path.of(flags.get("--series"));
        System.exit(
                run(
                                        new Settings(
                                                scale,
                                                Double.parseDouble(flags.get("--rate-mib")),
                                                Integer.parseInt(flags.get("--chunk-kib")) * 1024,
                                                series,
                                                LoadMain.repeats(flags.get("--repeats"))),
                                        System.out)
                                == 0
                        ? 0
                        : 1);
    }

    /** Runs both cases, prints their tables and the gates to {@code out}; returns the number of failed gates. */
    static int run(Settings settings, PrintStream out) throws Exception {
        Size scale = settings.scale();
        Load.Meter machine = new Load.Meter();
        List<String> csv = new ArrayList<>();
        csv.add(WindowTrace.CSV_HEADER);
        long started = System.nanoTime();
        out.printf(
                Locale.ROOT,
                "scenario C %s: %d x %d MiB into one sink alternating %.0f/%.0f MiB/s every %d ms;" + " java=%s%n",
                scale.name(),
                scale.uploads(),
                scale.bytesEach() / (1024 * 1024),
                FAST_SINK_MIB,
                SLOW_SINK_MIB,
                TimeUnit.NANOSECONDS.toMillis(scale.periodNanos()),
                Runtime.version());
        if (scale.rounds() > 1) {
            out.println(scale.rounds() + " interleaved rounds per case: MiB/s and s are the faster round's,"
                    + " every other column is over all rounds");
        }
        List<List<Result>> paced = new ArrayList<>();
        List<List<Result>> unpaced = new ArrayList<>();
        for (int repeat = 1; repeat <= settings.repeats(); repeat++) {
            if (settings.repeats() > 1) {
                out.printf(Locale.ROOT, "%nrepeat %d of %d%n", repeat, settings.repeats());
            }
            long repeatStarted = System.nanoTime();
            boolean first = repeat == 1;
            runRepeat(settings, first ? csv : new ArrayList<>(), first, out, paced, unpaced);
            if (settings.repeats() > 1) {
                out.println(LoadMain.repeatTook(
                        repeat, settings.repeats(), TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - repeatStarted)));
            }
        }
        if (settings.series() != null) {
            Files.write(settings.series(), csv, StandardCharsets.UTF_8);
            out.println("\nseries: " + settings.series() + " (" + (csv.size() - 1) + " rows"
                    + (settings.repeats() > 1 ? ", repeat 1" : "") + ")");
        }
        if (settings.repeats() > 1) {
            out.printf(
                    Locale.ROOT,
                    "%nscenario C took %d s (%d repeats)%n",
                    TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started),
                    settings.repeats());
        }
        Load load = machine.stop();
        out.printf(
                Locale.ROOT,
                "%nmachine: %s (other work kept %.0f%% of the cores busy; load average %.1f before," + " %.1f after)%n",
                load.noisy() ? "NOISY" : "quiet",
                100 * load.othersBusy(),
                load.load1Before(),
                load.load1After());
        return new DemandGates(settings, out).judge(paced, unpaced);
    }

    /** Both cases once, each strategy in turn; adds their results to the repeats' lists. */
    private static void runRepeat(
            Settings settings,
            List<String> csv,
            boolean warmUp,
            PrintStream out,
            List<List<Result>> pacedRepeats,
            List<List<Result>> unpacedRepeats)
            throws Exception {
        Size scale = settings.scale();
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(LoadMain.daemon("paced-clients"));
        List<Result> paced;
        try {
            out.printf(
                    Locale.ROOT,
                    "%nPaced producers (gated): each upload sends %.0f MiB/s in %d KiB chunks"
                            + " (%.0f MiB/s together); ideal aggregate %.1f MiB/s%n",
                    settings.producerMibPerSecond(),
                    settings.chunkBytes() / 1024,
                    settings.producerMibPerSecond() * scale.uploads(),
                    settings.idealPacedMibPerSecond(2 * scale.periodNanos() / 1e9));
            Schedule client = Schedule.constant(settings.producerMibPerSecond() * MIB);
            paced = runCase(
                    "",
                    scale,
                    csv,
                    warmUp,
                    out,
                    bytes -> ScheduledPublisher.timed(
                            bytes, settings.chunkBytes(), client, CLIENT_BURST_BYTES, timer, PacingClock.system()));
        } finally {
            timer.shutdownNow();
        }
        Path source = Files.createTempFile("sluice-demand-", ".bin");
        List<Result> unpaced;
        try {
            Scenarios.writeRandom(source, scale.bytesEach(), 7);
            out.printf(
                    Locale.ROOT,
                    "%nUnpaced producers (reported): each upload reads a file as fast as it can"
                            + " (ReactiveFile.read(), %d KiB chunks)%n",
                    UNPACED_CHUNK_BYTES / 1024);
            unpaced = runCase(
                    "unpaced ",
                    scale,
                    csv,
                    warmUp,
                    out,
                    bytes -> ReactiveFile.of(source).read(ReadOptions.range(0, bytes)));
        } finally {
            Files.deleteIfExists(source);
        }
        pacedRepeats.add(paced);
        unpacedRepeats.add(unpaced);
    }

    /** In the order they run and print: adaptive first, the control (all-at-once) last, as the gates expect. */
    private static List<Map.Entry<String, DemandStrategy>> strategies() {
        return List.of(
                Map.entry("adaptive", Demand.adaptive()),
                Map.entry("fixed(4,1)", Demand.fixed(4, 1)),
                Map.entry("fixed(16,4)", Demand.fixed(16, 4)),
                Map.entry("fixed(64,16)", Demand.fixed(64, 16)),
                Map.entry("all-at-once", Demand.unbounded()));
    }

    private static List<Result> runCase(
            String prefix,
            Size scale,
            List<String> csv,
            boolean warmUp,
            PrintStream out,
            LongFunction<Publisher<ByteBuffer>> producers)
            throws Exception {
        out.println("| strategy | aggregate MiB/s | s | peak queued MiB (sum) | stream 0 window, items (min..max)"
                + " | mean window, fast / slow | window shrank after fast->slow"
                + " | stream 0 window at fast end -> slow min |");
        out.println("|---|---:|---:|---:|---|---|---|---|");
        // Warm-up, unreported: every strategy once on a sixteenth of the bytes, so the first measured
        // strategy does not pay for class loading and JIT compilation the others are spared.
        Size warmUpSize = new Size("warm-up", scale.uploads(), scale.bytesEach() / 16, scale.periodNanos(), 1);
        for (Map.Entry<String, DemandStrategy> strategy :
                warmUp ? strategies() : List.<Map.Entry<String, DemandStrategy>>of()) {
            runOne(strategy, warmUpSize, producers, new ArrayList<>(), prefix);
        }
        Result[] results = new Result[strategies().size()];
        for (int round = 1; round <= scale.rounds(); round++) {
            // The series holds the last round only, so that its times run from one sink start.
            List<String> series = round == scale.rounds() ? csv : new ArrayList<>();
            List<Map.Entry<String, DemandStrategy>> strategies = strategies();
            for (int i = 0; i < results.length; i++) {
                Result result = runOne(strategies.get(i), scale, producers, series, prefix);
                results[i] = results[i] == null ? result : results[i].combine(result);
            }
        }
        for (Result result : results) {
            out.printf(
                    Locale.ROOT,
                    "| %s | %s | %.1f | %.1f | %s | %s | %d of %d | %s |%n",
                    result.strategy(),
                    result.outOfMemory()
                            ? "OutOfMemoryError"
                            : String.format(Locale.ROOT, "%.1f", result.mibPerSecond()),
                    result.seconds(),
                    result.peakQueuedBytes() / MIB,
                    items(result.smallestWindow()) + ".." + items(result.largestWindow()),
                    result.largestWindow() == Long.MAX_VALUE
                            ? "unbounded"
                            : String.format(
                                    Locale.ROOT, "%.0f / %.0f", result.meanFastWindow(), result.meanSlowWindow()),
                    result.shrunk(),
                    result.switches().size(),
                    result.switches().stream()
                            .map(windowSwitch ->
                                    items(windowSwitch.windowAtFastEnd()) + "->" + items(windowSwitch.slowMinimum()))
                            .collect(Collectors.joining(", ")));
        }
        return List.of(results);
    }

    /** The sink's rate {@code sinceStartNanos} after it started: fast in even periods, slow in odd ones. */
    static double sinkBytesPerSecond(long sinceStartNanos, long periodNanos) {
        return ((sinceStartNanos / periodNanos) % 2 == 0 ? FAST_SINK_MIB : SLOW_SINK_MIB) * MIB;
    }

    private static String items(long window) {
        return window == Long.MAX_VALUE ? "unbounded" : Long.toString(window);
    }

    private static Result runOne(
            Map.Entry<String, DemandStrategy> named,
            Size scale,
            LongFunction<Publisher<ByteBuffer>> producers,
            List<String> csv,
            String prefix)
            throws InterruptedException {
        String name = named.getKey();
        DemandStrategy strategy = named.getValue();
        // Every upload draws on this one budget, as on one disk; the rate at a transfer's start carries
        // all of it (a write is short against a period).
        ThrottledSink sink = new ThrottledSink(
                (start, bytes) -> start + (long) (bytes / sinkBytesPerSecond(start, scale.periodNanos()) * 1e9),
                PacingClock.system(),
                MAX_WRITE_BYTES);
        WindowTrace trace = new WindowTrace(prefix + name, sink.originNanos(), scale.periodNanos());
        WriteOptions options = strategy == Demand.unbounded() // all-at-once: no byte bound either
                ? WriteOptions.defaults().withDemand(strategy).withMaxQueuedBytes(Long.MAX_VALUE / 2)
                : WriteOptions.defaults().withDemand(strategy);
        List<ThrottledChannel> channels =
                Stream.generate(sink::channel).limit(scale.uploads()).toList();
        DemandRun.Result run = DemandRun.run(
                prefix + name,
                channels,
                stream -> producers.apply(scale.bytesEach()),
                (channel, body, listener) -> ByteChannels.write(
                        channel,
                        body,
                        options.withListener(pass -> listener.onPass(
                                pass.queuedBytes(),
                                pass.windowItems(),
                                pass.outstandingItems(),
                                pass.writtenBytes(),
                                pass.requestCalls()))),
                trace,
                0);
        csv.addAll(trace.csvRows());
        return new Result(
                name,
                run.mibPerSecond(),
                run.elapsedNanos() / 1e9,
                run.peakQueuedBytes(),
                trace.switches(),
                trace.smallestWindow(),
                trace.largestWindow(),
                trace.windowTime(),
                run.outOfMemory());
    }
}
