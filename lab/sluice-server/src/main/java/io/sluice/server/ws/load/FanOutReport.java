package io.sluice.server.ws.load;

import io.sluice.lab.Estimate;
import io.sluice.lab.Load;
import io.sluice.lab.Quietness;
import io.sluice.lab.ReportCommand;
import io.sluice.server.ws.FanOutLane;
import io.sluice.server.ws.Message;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.DoubleSummaryStatistics;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A fan-out run read back from its folder ({@code websocket.csv} and {@code websocket-series.csv},
 * as {@link FanOutLoadMain} wrote them), and what {@code sluice-server report} prints and writes
 * into the docs' blocks from it; the gates are computed again from the CSVs by the classes the run used.
 */
public record FanOutReport(List<LaneResult> results, List<LaneSample> samples) implements ReportCommand.Run {

    /** The seed's server and machine; its figures are in {@link #seed()}. */
    static final String SEED = "Undertow, an actor per client; 4-core i7-4770, JDK 12";
    /** The cost table of a run without the {@link ProcessCost} columns. */
    static final String COST_NOT_RECORDED = "Not recorded: this run's websocket.csv has no server user and system CPU,"
            + " write system call or client CPU columns.\n";

    public static boolean isRun(Path folder) {
        return Files.isRegularFile(folder.resolve(LaneResult.FILE));
    }

    public static FanOutReport read(Path folder) throws IOException {
        List<String> rows = Files.readAllLines(folder.resolve(LaneResult.FILE));
        if (rows.size() < 2 || !LaneResult.knownHeader(rows.get(0))) {
            throw new IOException(folder.resolve(LaneResult.FILE) + " has no rows, or another header than "
                    + LaneResult.CSV_HEADER + " (or, in older folders, " + LaneResult.BEFORE_COST_CSV_HEADER + " or "
                    + LaneResult.LEGACY_CSV_HEADER + ")");
        }
        Path seriesFile = folder.resolve(LaneSample.FILE);
        List<String> series = Files.exists(seriesFile) ? Files.readAllLines(seriesFile) : List.of();
        return new FanOutReport(
                rows.subList(1, rows.size()).stream().map(LaneResult::parse).toList(),
                series.stream().skip(1).map(LaneSample::parse).toList());
    }

    /** Commit, JDK, scale and whether the machine was quiet. */
    public String line() {
        LaneResult first = results.get(0);
        return String.format(
                Locale.ROOT,
                "Commit %s, JDK %s, %d clients (%d slow), %.0f s of load in the longest lane, " + "lanes %s; %s.",
                first.commit(),
                first.jdk(),
                first.clients(),
                first.slowClients(),
                results.stream().mapToDouble(LaneResult::seconds).max().orElse(0),
                results.stream().map(LaneResult::lane).distinct().collect(Collectors.joining(", "))
                        + (repeats() == 1 ? "" : ", " + repeats() + " repeats"),
                quietness().inWords());
    }

    int repeats() {
        return FanOutGates.repeats(results).size();
    }

    /** One line per lane (per lane and repeat in a run of several). */
    public String table() {
        StringBuilder table =
                new StringBuilder("| lane | clients (slow) | msg/s | fast msg/s | fast p50 / p99 / p999 ms "
                        + "| RSS idle / peak MiB | heap after GC MiB | held peak MiB | kernel send queue peak MiB "
                        + "| CPU s per million | server |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (LaneResult r : results) {
            table.append(String.format(
                    Locale.ROOT,
                    "| %s | %,d (%,d) | %,.0f | %,.0f | %.2f / %.2f / %.2f | %.0f / %.0f "
                            + "| %.1f | %.1f | %.1f | %.2f | %s |\n",
                    repeats() == 1 ? r.lane() : r.lane() + " (repeat " + r.repeat() + ")",
                    r.clients(),
                    r.slowClients(),
                    r.messagesPerSecond(),
                    r.fastMessagesPerSecond(),
                    r.fastP50Micros() / 1e3,
                    r.fastP99Micros() / 1e3,
                    r.fastP999Micros() / 1e3,
                    LaneResult.mib(r.idleRssBytes()),
                    LaneResult.mib(r.peakRssBytes()),
                    LaneResult.mib(r.heapAfterGcBytes()),
                    LaneResult.mib(r.peakQueuedBytes()),
                    LaneResult.mib(r.peakSendQueueBytes()),
                    r.cpuSecondsPerMillion(),
                    r.serverDeath().isEmpty() ? "ran to the end" : "died: " + r.serverDeath()));
        }
        return table.toString();
    }

    /**
     * Where the CPU per delivered message went, one line per lane (and repeat): the server's user,
     * system and all CPU, its write-family system calls and the CPU of the harness JVM, in which the
     * clients run. A figure not recorded prints as "-".
     */
    public String cost() {
        if (results.stream().noneMatch(result -> result.cost().recorded())) {
            return COST_NOT_RECORDED;
        }
        StringBuilder table = new StringBuilder("| lane | msg/s | server user µs/msg | server system µs/msg "
                + "| server µs/msg | server write syscalls per 1,000 msg | clients' JVM µs/msg |\n"
                + "|---|---:|---:|---:|---:|---:|---:|\n");
        for (LaneResult r : results) {
            ProcessCost cost = r.cost();
            double messages = r.messages();
            table.append(String.format(
                    Locale.ROOT,
                    "| %s | %,.0f | %s | %s | %s | %s | %s |\n",
                    repeats() == 1 ? r.lane() : r.lane() + " (repeat " + r.repeat() + ")",
                    r.messagesPerSecond(),
                    figure(cost.serverUserSeconds() * 1e6 / messages),
                    figure(cost.serverSystemSeconds() * 1e6 / messages),
                    figure(r.serverCpuSeconds() * 1e6 / messages),
                    cost.serverWriteSyscalls() < 0 ? "-" : figure(1000.0 * cost.serverWriteSyscalls() / messages),
                    figure(cost.clientCpuSeconds() * 1e6 / messages)));
        }
        return table.toString();
    }

    /** Two decimals; "-" for a figure not recorded or over no messages. */
    private static String figure(double value) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, "%.2f", value) : "-";
    }

    /**
     * One line per lane over its repeats: messages/s, the server's CPU per message, the cores it kept
     * busy (lowest to highest repeat) and messages/s against the first lane's, a ratio of means.
     */
    public String lanes() {
        List<String> lanes = results.stream().map(LaneResult::lane).distinct().toList();
        String reference = lanes.get(0);
        double[] referenceRates = rates(reference);
        StringBuilder table =
                new StringBuilder("| lane | repeats | msg/s, mean (95% interval) | server CPU µs/msg, mean "
                        + "| cores the server kept busy | msg/s against " + reference + " (95% interval) |\n"
                        + "|---|---:|---:|---:|---:|---:|\n");
        for (String lane : lanes) {
            List<LaneResult> runs = of(lane);
            double[] rates = rates(lane);
            Estimate rate = Estimate.mean(rates);
            DoubleSummaryStatistics busy = runs.stream()
                    .mapToDouble(result -> result.serverCpuSeconds() / result.seconds())
                    .summaryStatistics();
            double cpuPerMessage = runs.stream()
                    .mapToDouble(result -> result.serverCpuSeconds() * 1e6 / result.messages())
                    .average()
                    .orElse(Double.NaN);
            Estimate against = Estimate.ratioOfMeansInTurns(
                    runs, of(reference), LaneResult::repeat, LaneResult::messagesPerSecond);
            boolean single = rates.length == 1 || referenceRates.length == 1;
            table.append(String.format(
                    Locale.ROOT,
                    "| %s | %d | %s | %s | %s | %s |\n",
                    lane,
                    runs.size(),
                    rates.length == 1
                            ? String.format(Locale.ROOT, "%,.0f (1 sample)", rate.value())
                            : String.format(Locale.ROOT, "%,.0f (%,.0f-%,.0f)", rate.value(), rate.low(), rate.high()),
                    figure(cpuPerMessage),
                    !Double.isFinite(busy.getMin()) || !Double.isFinite(busy.getMax())
                            ? "-"
                            : busy.getMin() == busy.getMax()
                                    ? String.format(Locale.ROOT, "%.2f", busy.getMin())
                                    : String.format(Locale.ROOT, "%.2f-%.2f", busy.getMin(), busy.getMax()),
                    lane.equals(reference)
                            ? "the reference"
                            : single
                                    ? String.format(Locale.ROOT, "%.2f (1 sample)", against.value())
                                    : against.format()));
        }
        return table.toString();
    }

    /** {@code lane}'s results, one per repeat. */
    private List<LaneResult> of(String lane) {
        return results.stream().filter(result -> result.lane().equals(lane)).toList();
    }

    private double[] rates(String lane) {
        return of(lane).stream().mapToDouble(LaneResult::messagesPerSecond).toArray();
    }

    /** Every gate line and the count, as the run printed them. */
    public String gates() {
        return lines(FanOutGates.forRun(results, samples));
    }

    /** One line per gate, then the count. */
    static String lines(List<FanOutGates.Gate> gates) {
        return gates.stream().map(gate -> gate.line() + "\n").collect(Collectors.joining()) + FanOutGates.count(gates)
                + "\n";
    }

    /**
     * The seed's table side by side with ours (the first repeat's); the cost of backpressure is 1 - a
     * lane's messages/s over the unbounded lane's, over the window before it degraded ({@link Degradation}).
     */
    public String seed() {
        Optional<LaneResult> control = results.stream()
                .filter(result ->
                        result.repeat() == firstRepeat() && result.lane().equals(FanOutLane.UNBOUNDED.flag()))
                .findFirst();
        Optional<Degradation> degradation = control.map(
                controlResult -> Degradation.of(series(controlResult.lane()), controlResult.idleRssBytes()));
        List<LaneResult> lanes = results.stream()
                .filter(result -> !result.allFast() && result.repeat() == firstRepeat())
                .toList();
        StringBuilder table = new StringBuilder("| | seed (" + SEED + ")");
        lanes.forEach(lane -> table.append(" | ours: ")
                .append(lane.lane())
                .append(repeats() == 1 ? "" : " (repeat " + firstRepeat() + " of " + repeats() + ")"));
        table.append(" |\n|---|---").append("|---".repeat(lanes.size())).append("|\n");
        row(
                table,
                "clients (slow)",
                "1,000 (10%, 200 ms per message)",
                lanes,
                result -> String.format(Locale.ROOT, "%,d (%,d)", result.clients(), result.slowClients()));
        row(table, "message size", "about 250 B", lanes, result -> Message.BYTES + " B");
        row(
                table,
                "in-flight limit",
                "100 messages in flight, at most 5,000 buffered per client",
                lanes,
                result -> inFlight(result.lane()));
        row(
                table,
                "messages/s",
                "1,351,598 on average over 100 million (with backpressure)",
                lanes,
                result -> String.format(Locale.ROOT, "%,.0f", result.messagesPerSecond()));
        row(table, "cost of backpressure", "10-20% of throughput", lanes, result -> cost(result, control, degradation));
        row(
                table,
                "memory",
                "without backpressure: about 710-725 KB queued per socket, out of memory",
                lanes,
                result -> String.format(
                        Locale.ROOT,
                        "RSS +%.0f MiB over idle, peak kernel send queue %.1f MiB%s",
                        LaneResult.mib(result.peakRssBytes() - result.idleRssBytes()),
                        LaneResult.mib(result.peakSendQueueBytes()),
                        result.serverDeath().isEmpty() ? "" : ", died: " + result.serverDeath()));
        return table.toString();
    }

    private static void row(
            StringBuilder table,
            String what,
            String seed,
            List<LaneResult> lanes,
            java.util.function.Function<LaneResult, String> ours) {
        table.append("| ").append(what).append(" | ").append(seed);
        lanes.forEach(lane -> table.append(" | ").append(ours.apply(lane)));
        table.append(" |\n");
    }

    private static String inFlight(String lane) {
        return switch (lane) {
            case "bounded", "bounded-batched" ->
                "adaptive, at most " + FanOutLane.BOUNDED_MAX_QUEUED_BYTES / 1024 + " KiB ("
                        + FanOutLane.BOUNDED_MAX_QUEUED_BYTES / Message.BYTES + " messages) per client";
            case "fixed" -> "100 messages per client";
            default -> "none";
        };
    }

    private String cost(LaneResult lane, Optional<LaneResult> control, Optional<Degradation> degradation) {
        if (control.isEmpty() || lane.lane().equals(control.get().lane())) {
            return "the reference";
        }
        Degradation window = degradation.get();
        if (window.seconds() <= 0) {
            return "not measured";
        }
        double ours = window.rate(series(lane.lane()));
        double theirs = window.rate(series(control.get().lane()));
        return String.format(Locale.ROOT, "%.0f%% (%s)", 100 * (1 - ours / theirs), window.window());
    }

    /** The first repeat's samples of {@code lane}. */
    private List<LaneSample> series(String lane) {
        return LaneSample.series(samples, lane, firstRepeat());
    }

    private int firstRepeat() {
        return FanOutGates.repeats(results).get(0);
    }

    /** Everything {@code report --from} prints for a fan-out run. */
    public void print(PrintStream out) {
        out.print(line() + "\n\n" + table() + "\n" + lanes() + "\n" + cost() + "\n" + seed() + "\n" + gates());
    }

    /** Draws the charts ({@link FanOutCharts}) of the first repeat into {@code directory}. */
    public List<Path> charts(Path directory, PrintStream out) throws IOException {
        List<Path> written = FanOutCharts.write(
                results.stream()
                        .filter(result -> result.repeat() == firstRepeat())
                        .toList(),
                samples.stream()
                        .filter(sample -> sample.repeat() == firstRepeat())
                        .toList(),
                directory);
        written.forEach(file -> out.println("chart: " + file));
        return written;
    }

    /** The quiet rule over the lanes (each repeat of a lane one measurement). */
    @Override
    public Quietness quietness() {
        return Quietness.of(
                "lane",
                results.stream()
                        .map(result -> new Load(Double.NaN, Double.NaN, result.othersBusy()))
                        .toList());
    }
}
