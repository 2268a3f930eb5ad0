package io.sluice.bench.adaptive;

import io.sluice.bench.BenchMain;
import io.sluice.lab.BuildInfo;
import io.sluice.lab.Csv;
import io.sluice.lab.Load;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The demand-strategy scenario benchmark: calibrates the model's costs ({@link Calibration}), then
 * runs every strategy of {@link StrategyCase#all()} on every scenario of {@link Scenario#all} for
 * real, {@code --repetitions} times, each beside the model's and the schedule-only prediction, and
 * in each repetition scenario C ({@link SharedSink}: eight writers into one sink, both kinds of
 * producers, its own strategies; no model); writes the raw data and {@code adaptive-report.md} to
 * {@code --results}, the first repetition's charts to {@code --images} (lab/docs/ADAPTIVE.md §3
 * names the files).
 *
 * <pre>
 * mvn -q -B -Plab -pl lab/sluice-bench -am package -DskipTests
 * java -Xmx3g -cp lab/sluice-bench/target/sluice-bench.jar io.sluice.bench.adaptive.ScenarioMain \
 *     [--scale 1.0] [--repetitions 3] [--results lab/sluice-bench/target/adaptive] [--images DIR] [--seed 1]
 *     [--only NAME] [--shared-sink full|smoke]
 * </pre>
 * {@code --scale} multiplies every single-stream scenario's duration (1.0: 3 to 6 s each, 38 s per
 * strategy and repetition); {@code --only} keeps the scenarios whose name contains NAME (scenario C's
 * are {@code shared-sink-paced} and {@code shared-sink-unpaced}); {@code --shared-sink} is scenario
 * C's size (full: about three minutes a repetition); without {@code --images} no chart is drawn.
 */
public final class ScenarioMain {

    /** The raw runs, in {@code --results}. */
    public static final String RUNS_CSV = "adaptive-scenarios.csv";
    /** The window's response to the sink's switches, in {@code --results}. */
    public static final String WINDOWS_CSV = "adaptive-windows.csv";
    /** The calibrated costs, in {@code --results}. */
    public static final String COSTS_CSV = "adaptive-calibration.csv";

    static final String COSTS_HEADER = "cost,value";

    static final String RUNS_HEADER = "scenario,family,item_bytes,strategy,repetition,duration_ms,measured_mib_s,"
            + "model_mib_s,schedule_mib_s,measured_peak_queued_bytes,model_peak_queued_bytes,cap_bytes,"
            + "measured_peak_outstanding,model_peak_outstanding,measured_request_calls,model_request_calls,"
            + "load_before,load_after,others_busy";
    /** The header of runs recorded before {@code others_busy}: their machine's quiet is not known. */
    static final String RUNS_HEADER_WITHOUT_OTHERS = RUNS_HEADER.substring(0, RUNS_HEADER.lastIndexOf(','));

    static final String WINDOWS_HEADER =
            "scenario,strategy,repetition,source,switch_ms,to_slower,window_before," + "window_after,reaction_ms";

    private ScenarioMain() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> options = BenchMain.options(args);
        BuildInfo.requireCommitted(options.containsKey("allow-dirty"));
        double scale = Double.parseDouble(options.getOrDefault("scale", "1.0"));
        String only = options.getOrDefault("only", "");
        List<Scenario> scenarios = Scenario.all(scale).stream()
                .filter(scenario -> scenario.name().contains(only))
                .toList();
        List<SharedSink.Producers> shared = Arrays.stream(SharedSink.Producers.values())
                .filter(producers -> ("shared-sink-" + producers.label).contains(only))
                .toList();
        run(
                scenarios,
                StrategyCase.all(),
                SharedSink.named(options.getOrDefault("shared-sink", SharedSink.FULL.scale())),
                shared,
                Integer.parseInt(options.getOrDefault("repetitions", "3")),
                options.containsKey("images") ? Path.of(options.get("images")) : null,
                Path.of(options.getOrDefault("results", "lab/sluice-bench/target/adaptive")),
                Long.parseLong(options.getOrDefault("seed", "1")),
                Math.round(500_000_000L * Math.min(1.0, scale)),
                System.out);
    }

    /**
     * Everything {@link #main} does, for the given scenarios and strategies and scenario C's {@code shared}
     * producers at {@code sharedSink}'s size; returns the single-stream runs. Unless there is no single-stream
     * scenario, warms the JIT up first (a short run per strategy, discarded), then calibrates
     * ({@code calibrationNanos} per calibration run) and uses those costs for every prediction.
     */
    public static List<Comparison> run(
            List<Scenario> scenarios,
            List<StrategyCase> strategies,
            SharedSink sharedSink,
            List<SharedSink.Producers> shared,
            int repetitions,
            Path images,
            Path results,
            long seed,
            long calibrationNanos,
            PrintStream out)
            throws InterruptedException, IOException {
        ModelCosts costs = null;
        if (!scenarios.isEmpty()) {
            for (StrategyCase strategy : strategies) {
                RunRecorder.measure(
                        Scenario.crossingSink(64 * 1024, 1.0).withDurationNanos(calibrationNanos / 2), strategy);
            }
            costs = Calibration.fit(calibrationNanos, out);
        }
        Files.createDirectories(results);
        Files.writeString(
                results.resolve(COSTS_CSV), costs == null ? COSTS_HEADER + "\n" : costs.csv(), StandardCharsets.UTF_8);
        StringBuilder runs = new StringBuilder(RUNS_HEADER).append('\n');
        StringBuilder windows = new StringBuilder(WINDOWS_HEADER).append('\n');
        StringBuilder sharedRuns = new StringBuilder(SharedSinkResult.HEADER).append('\n');
        ModelCosts calibrated = costs;
        Map<String, RunResult> models = new HashMap<>();
        List<Comparison> all = new ArrayList<>();
        for (int repetition = 1; repetition <= repetitions; repetition++) {
            for (Scenario scenario : scenarios) {
                List<Comparison> rows = new ArrayList<>();
                for (StrategyCase strategy : strategies) {
                    Load.Meter meter = new Load.Meter();
                    RunResult measured = RunRecorder.measure(scenario, strategy);
                    Load load = meter.stop();
                    RunResult model = models.computeIfAbsent(
                            scenario.name() + "/" + strategy.name(),
                            key -> DemandSimulation.run(scenario, strategy, calibrated, seed));
                    Comparison row = new Comparison(
                            scenario, strategy, repetition, measured, model, ScheduleOnly.mibPerSecond(scenario));
                    rows.add(row);
                    runs.append(row.csv(load)).append('\n');
                    if (strategy.name().startsWith("adaptive")
                            && scenario.name().contains("-sink-")) {
                        windows.append(WindowResponse.csv(row, measured, "measured"));
                        windows.append(repetition == 1 ? WindowResponse.csv(row, model, "model") : "");
                    }
                    out.printf(
                            Locale.ROOT,
                            "%d %-20s %-14s measured %7.1f MiB/s peak %9s calls %7d | model %7.1f "
                                    + "MiB/s peak %9s calls %7d | schedule-only %7.1f | load %.2f -> %.2f%n",
                            repetition,
                            scenario.name(),
                            strategy.name(),
                            measured.mibPerSecond(),
                            ChartWriter.bytes(measured.peakQueuedBytes()),
                            measured.requestCalls(),
                            model.mibPerSecond(),
                            ChartWriter.bytes(model.peakQueuedBytes()),
                            model.requestCalls(),
                            row.scheduleMibPerSecond(),
                            load.load1Before(),
                            load.load1After());
                }
                all.addAll(rows);
                if (images != null && repetition == 1 && scenario.name().contains("-sink-")) {
                    ChartWriter.write(
                            images.resolve("adaptive-" + scenario.name() + ".png"),
                            "measured: "
                                    + scenario.name() + " (producer " + scenario.producer() + ", sink "
                                    + scenario.sink()
                                    + "; grey: sink slow)",
                            scenario,
                            rows.stream().map(Comparison::measured).toList());
                    ChartWriter.write(
                            images.resolve("adaptive-model-" + scenario.name() + ".png"),
                            "model: " + scenario.name(),
                            scenario,
                            rows.stream().map(Comparison::model).toList());
                }
            }
            for (SharedSink.Producers producers : shared) {
                runSharedSink(sharedSink, producers, repetition, images, sharedRuns, windows, out);
            }
        }
        Files.writeString(results.resolve(RUNS_CSV), runs, StandardCharsets.UTF_8);
        Files.writeString(results.resolve(WINDOWS_CSV), windows, StandardCharsets.UTF_8);
        if (shared.isEmpty()) {
            Files.deleteIfExists(results.resolve(SharedSinkResult.CSV)); // an earlier run's rows are not this run's
        } else {
            Files.writeString(results.resolve(SharedSinkResult.CSV), sharedRuns, StandardCharsets.UTF_8);
        }
        String report = AdaptiveTables.report(results);
        Files.writeString(results.resolve("adaptive-report.md"), report, StandardCharsets.UTF_8);
        out.println();
        out.println(report);
        out.println("wrote " + results.resolve(RUNS_CSV) + ", " + WINDOWS_CSV + ", " + COSTS_CSV
                + (shared.isEmpty() ? "" : ", " + SharedSinkResult.CSV) + " and adaptive-report.md");
        return all;
    }

    /**
     * Scenario C on {@code producers}, every strategy once (its warm-up first in repetition 1): adds its rows
     * to {@code csv}, adaptive's window response to {@code windows}, and in repetition 1 draws stream 0's
     * chart. The machine's load is measured over the whole case, and every row of it carries that.
     */
    private static void runSharedSink(
            SharedSink size,
            SharedSink.Producers producers,
            int repetition,
            Path images,
            StringBuilder csv,
            StringBuilder windows,
            PrintStream out)
            throws InterruptedException, IOException {
        Load.Meter meter = new Load.Meter();
        List<SharedSinkResult> results = SharedSinkRun.run(size, producers, repetition == 1);
        Load load = meter.stop();
        for (SharedSinkResult result : results) {
            csv.append(result.csv(size, repetition, load)).append('\n');
            if (result.strategy().equals("adaptive")) {
                windows.append(WindowResponse.csv(
                        result.scenario(), result.strategy(), repetition, result.streamZero(), "measured"));
            }
            out.printf(
                    Locale.ROOT,
                    "%d %-20s %-14s aggregate %7.1f MiB/s peak queued %9s%s window %s..%s shrank after %d of %d"
                            + " | load %.2f -> %.2f%n",
                    repetition,
                    result.scenario().name(),
                    result.strategy(),
                    result.mibPerSecond(),
                    ChartWriter.bytes(result.peakQueuedBytes()),
                    result.outOfMemory() ? " (out of memory)" : "",
                    ChartWriter.items(result.windows().smallest()),
                    ChartWriter.items(result.windows().largest()),
                    result.windows().shrank(),
                    result.windows().switches(),
                    load.load1Before(),
                    load.load1After());
        }
        if (images != null && repetition == 1) {
            Scenario scenario = results.get(0).scenario();
            ChartWriter.write(
                    images.resolve("adaptive-" + scenario.name() + ".png"),
                    "measured: " + size.describe() + ", " + producers.label + " producers; stream 0 of "
                            + size.streams() + " (grey: sink slow)",
                    scenario,
                    results.stream().map(SharedSinkResult::streamZero).toList());
        }
    }

    /**
     * One strategy on one scenario, one repetition: what was measured, what the model predicted,
     * and what the schedules alone predict.
     */
    public record Comparison(
            Scenario scenario,
            StrategyCase strategy,
            int repetition,
            RunResult measured,
            RunResult model,
            double scheduleMibPerSecond) {

        String csv(Load load) {
            return String.format(
                    Locale.ROOT,
                    "%s,%s,%d,%s,%d,%d,%.2f,%.2f,%.2f,%d,%d,%d,%d,%d,%d,%d,%.2f,%.2f,%.3f",
                    scenario.name(),
                    Scenario.family(scenario.name()),
                    scenario.itemBytes(),
                    Csv.quote(strategy.name()),
                    repetition,
                    scenario.durationNanos() / 1_000_000,
                    measured.mibPerSecond(),
                    model.mibPerSecond(),
                    scheduleMibPerSecond,
                    measured.peakQueuedBytes(),
                    model.peakQueuedBytes(),
                    scenario.maxQueuedBytes(),
                    measured.peakOutstandingItems(),
                    model.peakOutstandingItems(),
                    measured.requestCalls(),
                    model.requestCalls(),
                    load.load1Before(),
                    load.load1After(),
                    load.othersBusy());
        }
    }
}
