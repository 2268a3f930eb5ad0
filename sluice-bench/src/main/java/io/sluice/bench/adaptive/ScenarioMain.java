package io.sluice.bench.adaptive;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The demand-strategy scenario benchmark: every strategy of {@link StrategyCase#all()} on every
 * scenario of {@link Scenario#all}, measured for real and predicted by the model
 * ({@link DemandSimulation}, costs fitted by {@link Calibration}); prints Markdown tables (also
 * written to {@code <results>/scenarios.md}, with a CSV beside it), the adaptive strategy's targets
 * met or missed ({@link Targets}), and draws the variable-sink time series.
 *
 * <pre>
 * mvn -q -B -pl sluice-bench -am package -DskipTests
 * java -Xmx3g -cp "sluice-bench/target/classes:sluice-core/target/classes:$HOME/.m2/repository/org/reactivestreams/reactive-streams/1.0.4/reactive-streams-1.0.4.jar" \
 *     io.sluice.bench.adaptive.ScenarioMain [--scale 1.0] [--images docs/images] [--results sluice-bench/target/adaptive] [--seed 1] [--only NAME] [--costs build|fitted]
 * </pre>
 * {@code --scale} multiplies every scenario's duration (1.0: 3 to 6 s each, about 5.5 minutes in
 * all); {@code --only} keeps the scenarios whose name contains NAME; {@code --costs fitted} feeds
 * the model the costs calibrated in this run instead of {@link ModelCosts#buildMachine()}.
 */
public final class ScenarioMain {

    private ScenarioMain() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = parse(args);
        double scale = Double.parseDouble(options.getOrDefault("scale", "1.0"));
        Path images = Path.of(options.getOrDefault("images", "docs/images"));
        Path results = Path.of(options.getOrDefault("results", "sluice-bench/target/adaptive"));
        long seed = Long.parseLong(options.getOrDefault("seed", "1"));
        String only = options.getOrDefault("only", "");
        List<Scenario> scenarios = Scenario.all(scale).stream().filter(s -> s.name().contains(only)).toList();
        boolean fitted = options.getOrDefault("costs", "build").equals("fitted");
        run(scenarios, StrategyCase.all(), images, results, seed, Math.round(500_000_000L * Math.min(1.0, scale)),
                fitted, System.out);
    }

    /**
     * Everything {@link #main} does, for the given scenarios and strategies; returns the runs.
     * Warms the JIT up first (a short run per strategy, discarded), calibrates, and uses the fitted
     * costs for the model if {@code fittedCosts}, else {@link ModelCosts#buildMachine()} (fitted
     * once on a quieter machine: a calibration under heavy load mostly measures the load).
     */
    public static List<Comparison> run(List<Scenario> scenarios, List<StrategyCase> strategies, Path images,
                                       Path results, long seed, long calibrationNanos, boolean fittedCosts,
                                       PrintStream out)
            throws InterruptedException, IOException {
        for (StrategyCase strategy : strategies) {
            ScenarioRunner.run(Scenario.crossingSink(64 * 1024, 1.0).withDurationNanos(calibrationNanos / 2), strategy);
        }
        ModelCosts fitted = Calibration.fit(calibrationNanos);
        ModelCosts costs = fittedCosts ? fitted : ModelCosts.buildMachine();
        List<Comparison> all = new ArrayList<>();
        StringBuilder report = new StringBuilder();
        StringBuilder csv = new StringBuilder("scenario,strategy,measured_mib_s,model_mib_s,measured_peak_queued_bytes,"
                + "model_peak_queued_bytes,measured_peak_outstanding,model_peak_outstanding,measured_request_calls,"
                + "model_request_calls\n");
        report.append("Model costs: ").append(costs).append(fittedCosts ? " (fitted now)" : " (build machine; fitted now: "
                + fitted + ")").append("\n\nLoad average before the runs: ")
                .append(loadAverage()).append("\n\n");
        for (Scenario scenario : scenarios) {
            List<Comparison> rows = new ArrayList<>();
            for (StrategyCase strategy : strategies) {
                RunResult measured = ScenarioRunner.run(scenario, strategy);
                RunResult model = DemandSimulation.run(scenario, strategy, costs, seed);
                rows.add(new Comparison(scenario, strategy, measured, model));
                out.printf(Locale.ROOT, "%-22s %-14s measured %7.1f MiB/s peak %9s out %8s calls %7d | model %7.1f MiB/s peak %9s calls %7d%n",
                        scenario.name(), strategy.name(), measured.mibPerSecond(),
                        ChartWriter.bytes(measured.peakQueuedBytes()), ChartWriter.items(measured.peakOutstandingItems()),
                        measured.requestCalls(), model.mibPerSecond(), ChartWriter.bytes(model.peakQueuedBytes()),
                        model.requestCalls());
            }
            all.addAll(rows);
            report.append(table(scenario, rows));
            for (Comparison row : rows) {
                csv.append(String.join(",", scenario.name(), quoted(row.strategy().name()),
                        fmt(row.measured().mibPerSecond()), fmt(row.model().mibPerSecond()),
                        Long.toString(row.measured().peakQueuedBytes()), Long.toString(row.model().peakQueuedBytes()),
                        Long.toString(row.measured().peakOutstandingItems()), Long.toString(row.model().peakOutstandingItems()),
                        Long.toString(row.measured().requestCalls()), Long.toString(row.model().requestCalls()))).append('\n');
            }
            if (scenario.name().contains("-sink-")) {
                Path chart = images.resolve("adaptive-" + scenario.name() + ".png");
                ChartWriter.write(chart, "measured: " + scenario.name() + " (producer " + scenario.producer()
                        + ", sink " + scenario.sink() + "; grey: sink slow)", scenario,
                        rows.stream().map(Comparison::measured).toList());
                Path modelChart = images.resolve("adaptive-model-" + scenario.name() + ".png");
                ChartWriter.write(modelChart, "model: " + scenario.name(), scenario,
                        rows.stream().map(Comparison::model).toList());
                out.println("wrote " + chart + " and " + modelChart);
            }
        }
        report.append("Load average after the runs: ").append(loadAverage()).append("\n\n");
        report.append(Targets.evaluate(all));
        report.append(ModelAccuracy.summarize(all));
        out.println();
        out.println(report);
        Files.createDirectories(results);
        Files.writeString(results.resolve("scenarios.md"), report, StandardCharsets.UTF_8);
        Files.writeString(results.resolve("scenarios.csv"), csv, StandardCharsets.UTF_8);
        out.println("wrote " + results.resolve("scenarios.md") + " and scenarios.csv");
        return all;
    }

    /** One strategy on one scenario: what was measured and what the model predicted. */
    public record Comparison(Scenario scenario, StrategyCase strategy, RunResult measured, RunResult model) {
    }

    private static String table(Scenario scenario, List<Comparison> rows) {
        StringBuilder b = new StringBuilder();
        b.append("### ").append(scenario.name()).append("\n\nproducer ").append(scenario.producer())
                .append(", sink ").append(scenario.sink()).append(", ").append(scenario.itemBytes())
                .append(" B items, ").append(scenario.durationNanos() / 1_000_000).append(" ms, byte cap ")
                .append(ChartWriter.bytes(scenario.maxQueuedBytes())).append("\n\n")
                .append("| strategy | MiB/s measured | MiB/s model | peak queued measured | peak queued model "
                        + "| peak outstanding | request calls measured | request calls model |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Comparison row : rows) {
            b.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f | %s | %s | %s | %d | %d |%n",
                    row.strategy().name(), row.measured().mibPerSecond(), row.model().mibPerSecond(),
                    ChartWriter.bytes(row.measured().peakQueuedBytes()), ChartWriter.bytes(row.model().peakQueuedBytes()),
                    ChartWriter.items(row.measured().peakOutstandingItems()), row.measured().requestCalls(),
                    row.model().requestCalls()));
        }
        return b.append('\n').toString();
    }

    /** The system's load average (Linux), or "unknown". */
    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    /** A CSV field as RFC 4180 quotes it: strategy names such as {@code fixed(4,1)} hold commas. */
    static String quoted(String field) {
        return '"' + field.replace("\"", "\"\"") + '"';
    }

    private static String fmt(double value) {
        return String.format(Locale.ROOT, "%.2f", value);
    }

    static Map<String, String> parse(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --name value pairs, got '" + args[i] + "'");
            }
            options.put(args[i].substring(2), args[++i]);
        }
        return options;
    }
}
