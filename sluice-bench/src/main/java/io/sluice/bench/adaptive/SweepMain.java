package io.sluice.bench.adaptive;

import io.sluice.demand.AdaptiveDemand;
import io.sluice.demand.Demand;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ForkJoinPool;

/**
 * Sweeps the adaptive constants with the model (no real I/O; deterministic for a seed): for each
 * setting of {@code withAmount(16, min, max)}, {@code withShift(min, min, max)},
 * {@code withFactors(growth, shrink)} and {@code withMinBatchBytes(bytes)}, simulates every
 * scenario and scores it. Ranking: first the settings whose {@code request} calls are at most 1/8
 * of {@code oneByOne}'s in every scenario (the adaptive target), then the highest worst-case
 * throughput relative to the best setting of each scenario (to 1%), then the lowest mean peak
 * queued bytes (to 1% of the cap), then closeness to the paper's constants, then fewest calls.
 * <em>Feasible</em> adds: that worst case is at least 95%. The recommendation is the best-ranked
 * setting that is feasible both with the calibrated costs and with four times their latencies (a
 * busier machine).
 *
 * <pre>
 * java -cp "sluice-bench/target/classes:sluice-core/target/classes:$HOME/.m2/repository/org/reactivestreams/reactive-streams/1.0.4/reactive-streams-1.0.4.jar" \
 *     io.sluice.bench.adaptive.SweepMain [--results sluice-bench/target/adaptive] [--images docs/images] [--seed 1] [--threads 2]
 * </pre>
 */
public final class SweepMain {

    static final double THROUGHPUT_TOLERANCE = 0.95;
    static final double CALLS_LIMIT = 1.0 / 8;

    private SweepMain() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = ScenarioMain.parse(args);
        Path results = Path.of(options.getOrDefault("results", "sluice-bench/target/adaptive"));
        long seed = Long.parseLong(options.getOrDefault("seed", "1"));
        int threads = Integer.parseInt(options.getOrDefault("threads", "2"));
        List<Scenario> scenarios = Scenario.all(1.0);
        Sweep sweep = run(grid(), scenarios, ModelCosts.buildMachine(), seed, threads, System.out);
        String report = sweep.report() + robustness(sweep, seed) + batchWhatIf(sweep, seed);
        System.out.println(report);
        Files.createDirectories(results);
        Path chart = Path.of(options.getOrDefault("images", "docs/images")).resolve("adaptive-sweep.png");
        SweepChart.write(chart, sweep, RECOMMENDED);
        System.out.println("wrote " + chart);
        Files.writeString(results.resolve("sweep.md"), report, StandardCharsets.UTF_8);
        Files.writeString(results.resolve("sweep.csv"), sweep.csv(), StandardCharsets.UTF_8);
        System.out.println("wrote " + results.resolve("sweep.md") + " and sweep.csv");
    }

    /** Re-checks the top settings with four times the calibrated latencies (a busier machine). */
    static String robustness(Sweep sweep, long seed) throws Exception {
        ModelCosts slow = sweep.costs().withLatencies(4 * sweep.costs().dispatchNanos(),
                4 * sweep.costs().producerWakeNanos());
        List<Setting> top = sweep.ranked().stream().limit(30).map(Scored::setting).toList();
        Sweep again = run(top, sweep.scenarios(), slow, seed, 2, new PrintStream(java.io.OutputStream.nullOutputStream()));
        StringBuilder b = new StringBuilder("### The top 30 again, with 4x latencies (").append(slow).append(")\n\n")
                .append("| rank | setting | feasible | min throughput / best of these | max calls / oneByOne | mean peak queued / cap |\n")
                .append("|---:|---|---|---:|---:|---:|\n");
        Setting recommended = null;
        Setting fallback = null;
        for (int i = 0; i < again.scored().size(); i++) {
            Scored s = again.scored().get(i);
            boolean feasible = again.feasible(s) && sweep.feasible(sweep.ranked().get(i));
            if (feasible && recommended == null) {
                recommended = s.setting();
            }
            boolean fewCalls = again.maxCallsRatio(s) <= CALLS_LIMIT && sweep.maxCallsRatio(sweep.ranked().get(i)) <= CALLS_LIMIT;
            if (fewCalls && fallback == null) {
                fallback = s.setting();
            }
            b.append(String.format(Locale.ROOT, "| %d | %s | %s | %.3f | 1/%.0f | %.2f |%n", i + 1, s.setting(),
                    again.feasible(s) ? "yes" : "no", again.minThroughputRatio(s),
                    1 / Math.max(1e-9, again.maxCallsRatio(s)), again.meanPeakFraction(s)));
        }
        if (recommended != null) {
            b.append("\n**Recommended** (feasible with both costs, best rank): ").append(recommended).append("\n\n");
        } else {
            b.append("\n**Recommended**: no setting in the top 30 is feasible with both costs; the best-ranked one "
                    + "within the calls limit with both is ").append(fallback == null ? "none" : fallback.toString())
                    .append("\n\n");
        }
        return b.toString();
    }

    /**
     * A what-if for the writer, not the strategy: the recommended setting when one drain batch
     * takes at most a quarter of the byte cap, so demand can be issued while the rest of the
     * window is still being written.
     */
    static String batchWhatIf(Sweep sweep, long seed) {
        Setting best = sweep.ranked().get(0).setting();
        StringBuilder b = new StringBuilder("### What-if: drain batches of at most cap/4 (writer change, model)\n\n")
                .append("| scenario | unbounded MiB/s | recommended, batch <= 8 MiB | recommended, batch <= cap/4 |\n")
                .append("|---|---:|---:|---:|\n");
        for (int i = 0; i < sweep.scenarios().size(); i++) {
            Scenario scenario = sweep.scenarios().get(i);
            RunResult small = DemandSimulation.run(scenario, new StrategyCase(best.toString(), best.strategy()),
                    sweep.costs(), seed, scenario.maxQueuedBytes() / 4);
            double unbounded = sweep.unbounded().get(i).mibPerSecond();
            double now = sweep.ranked().get(0).runs().get(i).mibPerSecond();
            b.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f (%.1f%%) | %.1f (%.1f%%) |%n", scenario.name(),
                    unbounded, now, 100 * now / unbounded, small.mibPerSecond(), 100 * small.mibPerSecond() / unbounded));
        }
        return b.append('\n').toString();
    }

    /** One point of the grid. */
    public record Setting(long minAmount, long maxAmount, long minShift, long maxShift, int growth, int shrink,
                          long minBatchBytes) {

        /** The strategy: amount starts at 16 (or its nearest bound), shift at its minimum. */
        public AdaptiveDemand strategy() {
            long initial = Math.max(minAmount, Math.min(16, maxAmount));
            return Demand.adaptive()
                    .withShift(1, 1, 1)
                    .withAmount(initial, minAmount, maxAmount)
                    .withShift(minShift, minShift, maxShift)
                    .withFactors(growth, shrink)
                    .withMinBatchBytes(minBatchBytes);
        }

        /** How far from the paper's constants (factors 2, shift [1, 3], amount at least 3): for ties. */
        int distanceFromPaper() {
            return (growth != 2 ? 1 : 0) + (shrink != 2 ? 1 : 0) + (minShift != 1 ? 1 : 0) + (maxShift != 3 ? 1 : 0);
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "amount [%d, %d], shift [%d, %d], x%d /%d, minBatch %s", minAmount,
                    maxAmount, minShift, maxShift, growth, shrink, ChartWriter.bytes(minBatchBytes));
        }
    }

    /** The grid: the current defaults' neighbourhood and beyond. */
    public static List<Setting> grid() {
        List<Setting> grid = new ArrayList<>();
        long[][] shifts = {{1, 1}, {1, 3}, {2, 3}, {1, 7}, {2, 7}, {4, 7}};
        for (long maxAmount : new long[] {256, 1024, 4096}) {
            for (long minAmount : new long[] {4, 8, 16, 32}) {
                for (long[] shift : shifts) {
                    if (shift[1] >= minAmount) {
                        continue;
                    }
                    for (int growth : new int[] {2, 4}) {
                        for (int shrink : new int[] {2, 4}) {
                            for (long minBatch : new long[] {0, 64 * 1024, 128 * 1024, 256 * 1024, 512 * 1024}) {
                                grid.add(new Setting(minAmount, maxAmount, shift[0], shift[1], growth, shrink, minBatch));
                            }
                        }
                    }
                }
            }
        }
        return grid;
    }

    /** A setting's model results, one per scenario. */
    public record Scored(Setting setting, List<RunResult> runs) {
    }

    /** Simulates every setting on every scenario. */
    public static Sweep run(List<Setting> settings, List<Scenario> scenarios, ModelCosts costs, long seed,
                            int threads, PrintStream out) throws Exception {
        List<RunResult> unbounded = new ArrayList<>();
        List<RunResult> oneByOne = new ArrayList<>();
        for (Scenario scenario : scenarios) {
            unbounded.add(DemandSimulation.run(scenario, new StrategyCase("unbounded", Demand.unbounded()), costs, seed));
            oneByOne.add(DemandSimulation.run(scenario, new StrategyCase("oneByOne", Demand.oneByOne()), costs, seed));
        }
        ForkJoinPool pool = new ForkJoinPool(Math.max(1, threads));
        try {
            List<Scored> scored = pool.submit(() -> settings.parallelStream()
                    .map(setting -> new Scored(setting, scenarios.stream()
                            .map(s -> DemandSimulation.run(s, new StrategyCase(setting.toString(), setting.strategy()),
                                    costs, seed))
                            .toList()))
                    .toList()).get();
            out.println("simulated " + settings.size() + " settings x " + scenarios.size() + " scenarios");
            return new Sweep(scenarios, scored, unbounded, oneByOne, costs, seed, null);
        } finally {
            pool.shutdown();
        }
    }

    /** The sweep's results and how they rank. */
    public record Sweep(List<Scenario> scenarios, List<Scored> scored, List<RunResult> unbounded,
                        List<RunResult> oneByOne, ModelCosts costs, long seed, double[] best) {

        public Sweep {
            best = new double[scenarios.size()];
            for (int i = 0; i < best.length; i++) {
                int scenario = i;
                best[i] = scored.stream().mapToDouble(s -> s.runs().get(scenario).mibPerSecond()).max().orElse(0);
            }
        }

        double bestThroughput(int scenario) {
            return best[scenario];
        }

        double minThroughputRatio(Scored s) {
            double min = Double.MAX_VALUE;
            for (int i = 0; i < scenarios.size(); i++) {
                min = Math.min(min, s.runs().get(i).mibPerSecond() / bestThroughput(i));
            }
            return min;
        }

        double maxCallsRatio(Scored s) {
            double max = 0;
            for (int i = 0; i < scenarios.size(); i++) {
                max = Math.max(max, (double) s.runs().get(i).requestCalls() / Math.max(1, oneByOne.get(i).requestCalls()));
            }
            return max;
        }

        double meanPeakFraction(Scored s) {
            double sum = 0;
            for (int i = 0; i < scenarios.size(); i++) {
                sum += (double) s.runs().get(i).peakQueuedBytes() / scenarios.get(i).maxQueuedBytes();
            }
            return sum / scenarios.size();
        }

        long totalCalls(Scored s) {
            return s.runs().stream().mapToLong(RunResult::requestCalls).sum();
        }

        boolean feasible(Scored s) {
            return minThroughputRatio(s) >= THROUGHPUT_TOLERANCE && maxCallsRatio(s) <= CALLS_LIMIT;
        }

        List<Scored> ranked() {
            Comparator<Scored> order = Comparator.comparing((Scored s) -> maxCallsRatio(s) > CALLS_LIMIT)
                    .thenComparingDouble(s -> -Math.round(minThroughputRatio(s) * 100) / 100.0)
                    .thenComparingDouble(s -> Math.round(meanPeakFraction(s) * 100) / 100.0)
                    .thenComparingInt(s -> s.setting().distanceFromPaper())
                    .thenComparingLong(this::totalCalls);
            return scored.stream().sorted(order).toList();
        }

        String report() {
            StringBuilder b = new StringBuilder("## Sweep of the adaptive constants (model)\n\n");
            b.append(String.format(Locale.ROOT, "%d settings x %d scenarios, costs %s, seed %d. Feasible: throughput "
                            + ">= %.0f%% of the best setting in every scenario and request calls <= 1/8 of oneByOne's. "
                            + "%d of %d settings are feasible.%n%n", scored.size(), scenarios.size(), costs, seed,
                    100 * THROUGHPUT_TOLERANCE, scored.stream().filter(this::feasible).count(), scored.size()));
            b.append("| rank | setting | feasible | min throughput / best | max calls / oneByOne | mean peak queued / cap |\n")
                    .append("|---:|---|---|---:|---:|---:|\n");
            List<Scored> ranked = ranked();
            for (int i = 0; i < Math.min(15, ranked.size()); i++) {
                b.append(row(i + 1, ranked.get(i)));
            }
            appendLabelled(b, ranked, RECOMMENDED, "shipped defaults");
            appendLabelled(b, ranked, PRE_SWEEP, "defaults before the sweep");
            b.append("\nPer scenario, best setting vs unbounded and oneByOne (model, MiB/s | peak queued | calls):\n\n")
                    .append("| scenario | recommended | unbounded | oneByOne |\n|---|---|---|---|\n");
            Scored best = ranked.get(0);
            for (int i = 0; i < scenarios.size(); i++) {
                b.append("| ").append(scenarios.get(i).name()).append(" | ").append(cell(best.runs().get(i)))
                        .append(" | ").append(cell(unbounded.get(i))).append(" | ").append(cell(oneByOne.get(i)))
                        .append(" |\n");
            }
            return b.append('\n').toString();
        }

        /** The row of {@code setting} with its rank and a label, where the grid has it. */
        private void appendLabelled(StringBuilder b, List<Scored> ranked, Setting setting, String label) {
            scored.stream().filter(s -> s.setting().equals(setting)).findFirst().ifPresent(found ->
                    b.append(row(ranked.indexOf(found) + 1, found).replaceFirst("\\| ([^|]*) \\|", "| $1 (" + label + ") |")));
        }

        private String row(int rank, Scored s) {
            return String.format(Locale.ROOT, "| %d | %s | %s | %.3f | 1/%.0f | %.2f |%n", rank, s.setting(),
                    feasible(s) ? "yes" : "no", minThroughputRatio(s), 1 / Math.max(1e-9, maxCallsRatio(s)),
                    meanPeakFraction(s));
        }

        private static String cell(RunResult r) {
            return String.format(Locale.ROOT, "%.1f, %s, %d", r.mibPerSecond(), ChartWriter.bytes(r.peakQueuedBytes()),
                    r.requestCalls());
        }

        String csv() {
            StringBuilder b = new StringBuilder("setting,feasible,min_throughput_ratio,max_calls_ratio,mean_peak_fraction,total_calls\n");
            for (Scored s : scored) {
                b.append('"').append(s.setting()).append("\",").append(feasible(s)).append(',')
                        .append(String.format(Locale.ROOT, "%.4f,%.4f,%.4f,", minThroughputRatio(s), maxCallsRatio(s),
                                meanPeakFraction(s)))
                        .append(totalCalls(s)).append('\n');
            }
            return b.toString();
        }
    }

    /**
     * The setting the library ships ({@code AdaptiveDemand}'s defaults): feasible, tied with the
     * top of the ranking on worst-case throughput and request calls, and with a range to adapt in
     * for small items (1 KiB items: 256 to 1,024 per request). It need not be the best-ranked
     * setting the report recommends: the report labels it "shipped defaults" and the chart marks it.
     * Where it ranks: docs/ADAPTIVE.md §5.
     */
    static final Setting RECOMMENDED = new Setting(16, 1024, 1, 1, 4, 4, 256 * 1024);

    /** The defaults in the tree before the sweep was written (amount in [4, 1024], shift [1, 3], x2 /2, 64 KiB). */
    static final Setting PRE_SWEEP = new Setting(4, 1024, 1, 3, 2, 2, 64 * 1024);
}
