package io.sluice.server.ws.load;

import io.sluice.lab.BuildInfo;
import io.sluice.lab.Load;
import io.sluice.server.load.ProcessReadings;
import io.sluice.server.ws.FanOutLane;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The fan-out harness, run in its own JVM as the load client: {@code java -cp sluice-server.jar
 * io.sluice.server.ws.load.FanOutLoadMain [--smoke] [flags of FanOutRun]}. Each lane gets a fresh
 * server JVM and the clients on loopback; it prints each lane's figures, the cost table and the
 * gates, and with {@code --results DIR} writes the raw CSVs there. Exits 1 when a gate fails.
 */
public final class FanOutLoadMain {

    /** How often the clients' totals and the server's memory and queues are sampled during the load. */
    static final long SAMPLE_MILLIS = 250;
    /** The most the server may take to release every subscription after the clients closed. */
    static final long RELEASE_TIMEOUT_MILLIS = 15_000;

    private FanOutLoadMain() {}

    public static void main(String[] arguments) throws Exception {
        String[] args = BuildInfo.requireCommitted(arguments);
        boolean smoke = args.length > 0 && args[0].equals("--smoke");
        FanOutRun run;
        try {
            run = (smoke ? FanOutRun.smoke() : FanOutRun.defaults())
                    .withFlags(smoke ? Arrays.copyOfRange(args, 1, args.length) : args);
        } catch (IllegalArgumentException e) {
            System.err.println("fan-out load: " + e.getMessage());
            System.exit(2);
            return;
        }
        if (!run.budget().isZero()) {
            startWatchdog(run.budget());
        }
        System.exit(run(run, System.out) == 0 ? 0 : 1);
    }

    /** Stops the run when it outlasts {@code budget}: destroys the server JVMs it started and halts, exit status 3. */
    private static void startWatchdog(Duration budget) {
        Thread watchdog = new Thread(
                () -> {
                    try {
                        Thread.sleep(budget.toMillis()); // a timer: nothing signals the end of a run to wait for
                    } catch (InterruptedException e) {
                        return;
                    }
                    System.err.println("fan-out load: the run outlasted its budget of " + budget.toSeconds()
                            + " s (--budget-seconds); stopping its servers");
                    ProcessHandle.current().descendants().forEach(ProcessHandle::destroyForcibly);
                    Runtime.getRuntime().halt(3);
                },
                "fan-out-budget");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    /** Runs every lane of {@code run} and its gates; returns how many gates failed. */
    static int run(FanOutRun run, PrintStream out) throws Exception {
        out.println(
                "fan-out run: " + run.clients() + " clients (" + FanOutLoad.slowClients(run.clients(), run.slowShare())
                        + " slow, " + run.slowDelayMillis() + " ms per message), up to "
                        + run.loadTime().toSeconds() + " s or "
                        + run.maxMessages() + " messages per lane, generator rate "
                        + (run.messagesPerSecond() == 0 ? "unpaced" : run.messagesPerSecond() + "/s")
                        + ", server -Xmx" + run.serverHeap() + ", " + run.serverRuns() + " server runs"
                        + (run.allFastReference() ? " (the last: the bounded lane, every client fast)" : "")
                        + ", at most about " + run.expectedLongest().toSeconds() + " s, java " + Runtime.version());
        if (!run.budget().isZero() && run.expectedLongest().compareTo(run.budget()) > 0) {
            out.println("note: this run may take up to " + run.expectedLongest().toSeconds()
                    + " s, more than its budget of " + run.budget().toSeconds()
                    + " s (--budget-seconds): the lanes after it would not run");
        }
        List<LaneResult> results = new ArrayList<>();
        List<LaneSample> samples = new ArrayList<>();
        for (int repeat = 1; repeat <= run.repeats(); repeat++) {
            if (run.repeats() > 1) {
                out.println("repeat " + repeat + " of " + run.repeats());
            }
            for (FanOutLane lane : run.lanes()) {
                results.add(runLane(lane.flag(), lane, run, run.slowShare(), repeat, samples, out));
                write(run, results, samples);
            }
            if (run.allFastReference()) {
                results.add(runLane(LaneResult.ALL_FAST, FanOutLane.BOUNDED, run, 0, repeat, samples, out));
                write(run, results, samples);
            }
        }
        if (run.results() != null) {
            out.println("raw results: " + run.results().resolve(LaneResult.FILE) + ", "
                    + run.results().resolve(LaneSample.FILE));
        }
        List<FanOutGates.Gate> gates = FanOutGates.forRun(results, samples);
        out.print(
                "where the CPU per message went (/proc at " + Math.round(ProcessReadings.ticksPerSecond()) + " ticks/s"
                        + (ProcessReadings.ticksPerSecondAssumed() ? ", assumed: getconf CLK_TCK could not be run" : "")
                        + "):\n" + new FanOutReport(results, samples).cost() + FanOutReport.lines(gates));
        return (int) gates.stream().filter(FanOutGates.Gate::failed).count();
    }

    /** Writes the lanes so far to the results folder, if there is one: a run stopped later keeps them. */
    private static void write(FanOutRun run, List<LaneResult> results, List<LaneSample> samples) throws IOException {
        if (run.results() == null) {
            return;
        }
        Files.createDirectories(run.results());
        Files.write(
                run.results().resolve(LaneResult.FILE),
                Stream.concat(Stream.of(LaneResult.CSV_HEADER), results.stream().map(LaneResult::csvRow))
                        .toList());
        Files.write(
                run.results().resolve(LaneSample.FILE),
                Stream.concat(Stream.of(LaneSample.CSV_HEADER), samples.stream().map(LaneSample::csvRow))
                        .toList());
    }

    /**
     * Runs one lane in a fresh server JVM with {@code slowShare} of the clients slow, adds its time
     * series to {@code samples} and prints its line.
     */
    static LaneResult runLane(
            String label,
            FanOutLane lane,
            FanOutRun run,
            double slowShare,
            int repeat,
            List<LaneSample> samples,
            PrintStream out)
            throws Exception {
        try (FanOutProcess server =
                FanOutProcess.start(lane, run.serverHeap(), run.messagesPerSecond(), run.sendBufferBytes())) {
            long idleRss = server.rssBytes();
            try (FanOutLoad load = FanOutLoad.connect(server.uri(), run.clients(), slowShare, run.slowDelayMillis())) {
                load.latencySinceLastCall(); // the connect phase is not measured
                double cpuBefore = server.cpuSeconds();
                ProcessCost.Snapshot costBefore = ProcessCost.Snapshot.take(server.pid());
                Load.Meter meter = new Load.Meter();
                long start = System.nanoTime();
                long deadline = start + run.loadTime().toNanos();
                List<LaneSample> series = new ArrayList<>();
                while (System.nanoTime() < deadline
                        && server.jvm().alive()
                        && load.fastMessages().sum() + load.slowMessages().sum() < run.maxMessages()) {
                    TimeUnit.MILLISECONDS.sleep(SAMPLE_MILLIS); // the sampling period
                    series.add(sample(label, repeat, start, load, server));
                }
                samples.addAll(series);
                double seconds = (System.nanoTime() - start) / 1e9;
                long fast = load.fastMessages().sum();
                long slowMessages = load.slowMessages().sum();
                double cpu = server.cpuSeconds() - cpuBefore;
                ProcessCost cost = ProcessCost.Snapshot.take(server.pid()).since(costBefore);
                Load machine = meter.stop(Double.isNaN(cpu) ? 0 : (long) (cpu * 1e9)); // the server's CPU is the run's
                Histogram latency = load.latencySinceLastCall();
                Map<String, Long> stats = server.stats(true);
                Throwable error = load.firstError().get(); // before the close, which fails what is in flight
                load.close(); // the try's close then does nothing
                long released = awaitReleased(server, run.clients());
                int slow = FanOutLoad.slowClients(run.clients(), slowShare);
                LaneResult result = new LaneResult(
                        label,
                        run.clients(),
                        slow,
                        seconds,
                        fast,
                        slowMessages,
                        load.gaps().sum(),
                        load.duplicates().sum(),
                        error == null ? "" : error.toString(),
                        latency.getValueAtPercentile(50),
                        latency.getValueAtPercentile(99),
                        latency.getValueAtPercentile(99.9),
                        idleRss,
                        Math.max(idleRss, LaneSample.peak(series, LaneSample::rssBytes)),
                        stats.getOrDefault("heapUsedBytes", -1L),
                        stats.getOrDefault("queuedBytes", -1L),
                        LaneSample.peak(series, LaneSample::queuedBytes),
                        LaneSample.peak(series, LaneSample::sendQueueBytes),
                        cpu,
                        released,
                        machine.othersBusy(),
                        BuildInfo.commit(),
                        Runtime.version().toString(),
                        server.jvm().death(),
                        stats.getOrDefault("liveSubscribers", -1L),
                        repeat,
                        cost);
                out.println(result.summary());
                return result;
            }
        }
    }

    /** What the clients have received and the server holds now. */
    private static LaneSample sample(String label, int repeat, long start, FanOutLoad load, FanOutProcess server) {
        long fast = load.fastMessages().sum();
        long messages = fast + load.slowMessages().sum();
        double seconds = (System.nanoTime() - start) / 1e9;
        Map<String, Long> stats = server.stats(false);
        return new LaneSample(
                label,
                seconds,
                messages,
                fast,
                server.rssBytes(),
                stats.getOrDefault("heapUsedBytes", -1L),
                stats.getOrDefault("queuedBytes", -1L),
                server.sendQueueBytes(),
                repeat);
    }

    /** Waits until the server reports every subscription ended; returns how many had. */
    private static long awaitReleased(FanOutProcess server, int clients) throws InterruptedException {
        long deadline = System.currentTimeMillis() + RELEASE_TIMEOUT_MILLIS;
        long ended = 0;
        while (System.currentTimeMillis() < deadline && server.jvm().alive()) {
            Map<String, Long> stats = server.stats(false);
            ended = stats.getOrDefault("endedSubscribers", 0L);
            if (ended >= clients && stats.getOrDefault("activeStreams", -1L) == 0) {
                return ended;
            }
            TimeUnit.MILLISECONDS.sleep(SAMPLE_MILLIS); // polling another JVM
        }
        return ended;
    }
}
