package io.sluice.server.ws.load;

import io.sluice.server.ws.FanOutLane;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The fan-out harness, run in its own JVM as the load client: {@code java -cp sluice-server.jar
 * io.sluice.server.ws.load.FanOutLoadMain [--smoke] [flags of FanOutRun]}. For each lane it starts
 * a fresh server JVM, opens the clients on loopback, lets them read until the time or message
 * limit, prints the lane's figures, closes the clients and checks the server released every
 * subscription; then it prints the gates. With {@code --results DIR} it writes
 * {@code DIR/websocket.csv}, one row per lane. Exits 1 when a gate fails.
 */
public final class FanOutLoadMain {

    /** How often the server's RSS is sampled during the load. */
    static final long SAMPLE_MILLIS = 250;
    /** The most the server may take to release every subscription after the clients closed. */
    static final long RELEASE_TIMEOUT_MILLIS = 15_000;

    private FanOutLoadMain() {
    }

    public static void main(String[] args) throws Exception {
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
        System.exit(run(run, System.out) == 0 ? 0 : 1);
    }

    /**
     * Runs every lane of {@code run} and its gates.
     *
     * @return the number of gates that failed
     */
    static int run(FanOutRun run, PrintStream out) throws Exception {
        out.println("fan-out run: " + run.clients() + " clients (" + FanOutLoad.slowClients(run.clients(), run.slowShare())
                + " slow, " + run.slowDelayMillis() + " ms per message), up to " + run.loadTime().toSeconds() + " s or "
                + run.maxMessages() + " messages per lane, generator rate "
                + (run.messagesPerSecond() == 0 ? "unpaced" : run.messagesPerSecond() + "/s")
                + ", server -Xmx" + run.serverHeap() + ", java " + Runtime.version());
        List<LaneResult> results = new ArrayList<>();
        for (FanOutLane lane : run.lanes()) {
            LaneResult result = runLane(lane, run);
            out.println(result.summary());
            results.add(result);
        }
        if (run.results() != null) {
            Files.createDirectories(run.results());
            List<String> lines = new ArrayList<>();
            lines.add(LaneResult.CSV_HEADER);
            results.forEach(result -> lines.add(result.csvRow()));
            Files.write(run.results().resolve("websocket.csv"), lines);
            out.println("raw results: " + run.results().resolve("websocket.csv"));
        }
        List<FanOutGates.Gate> gates = FanOutGates.evaluate(results);
        gates.forEach(gate -> out.println(gate.line()));
        long failed = gates.stream().filter(gate -> !gate.passed()).count();
        out.println("gates: " + (gates.size() - failed) + " passed, " + failed + " failed");
        return (int) failed;
    }

    static LaneResult runLane(FanOutLane lane, FanOutRun run) throws Exception {
        try (FanOutProcess server = FanOutProcess.start(lane, run.serverHeap(), run.messagesPerSecond(),
                run.sendBufferBytes())) {
            long idleRss = server.rssBytes();
            int slow = FanOutLoad.slowClients(run.clients(), run.slowShare());
            FanOutLoad load = FanOutLoad.connect(server.uri(), run.clients(), run.slowShare(), run.slowDelayMillis());
            try {
                load.latencySinceLastCall(); // the connect phase is not measured
                double cpuBefore = server.cpuSeconds();
                long start = System.nanoTime();
                long deadline = start + run.loadTime().toNanos();
                long peakRss = idleRss;
                LoadTally tally = load.tally();
                while (System.nanoTime() < deadline && tally.fastMessages() + tally.slowMessages() < run.maxMessages()
                        && server.alive()) {
                    TimeUnit.MILLISECONDS.sleep(SAMPLE_MILLIS); // the sampling period
                    peakRss = Math.max(peakRss, server.rssBytes());
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                long fast = tally.fastMessages();
                long slowMessages = tally.slowMessages();
                double cpu = server.cpuSeconds() - cpuBefore;
                Histogram latency = load.latencySinceLastCall();
                Map<String, Long> stats = server.stats(true);
                Throwable error = tally.firstError(); // before the close, which fails what is in flight
                load.close(); // the finally's close then does nothing
                long released = awaitReleased(server, run.clients());
                return new LaneResult(lane.flag(), run.clients(), slow, seconds, fast, slowMessages, tally.gaps(),
                        tally.duplicates(), error == null ? "" : error.toString(),
                        latency.getValueAtPercentile(50), latency.getValueAtPercentile(99),
                        latency.getValueAtPercentile(99.9), idleRss, peakRss, stats.getOrDefault("heapUsedBytes", -1L),
                        stats.getOrDefault("queuedBytes", -1L), cpu, released, server.death());
            } finally {
                load.close();
            }
        }
    }

    /** Waits until the server reports every subscription ended; returns how many had. */
    private static long awaitReleased(FanOutProcess server, int clients) throws InterruptedException {
        long deadline = System.currentTimeMillis() + RELEASE_TIMEOUT_MILLIS;
        long ended = 0;
        while (System.currentTimeMillis() < deadline && server.alive()) {
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
