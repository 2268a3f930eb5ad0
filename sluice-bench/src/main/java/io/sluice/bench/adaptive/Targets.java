package io.sluice.bench.adaptive;

import io.sluice.bench.adaptive.ScenarioMain.Comparison;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Checks the adaptive strategy's targets against measured runs and states each as met or missed,
 * with the figure: at least 95% of {@code unbounded}'s throughput; peak queued bytes within the
 * scenario's cap; at most 1/8 of {@code oneByOne}'s request calls; faster than {@code oneByOne}
 * where the producer is the slower end. Together they ask adaptive demand to keep a bound on memory
 * and on signalling without giving up throughput. Also prints how the window responds to each
 * switch of a variable sink. docs/ADAPTIVE.md, §7, reads the results.
 */
final class Targets {

    private Targets() {
    }

    static String evaluate(List<Comparison> runs) {
        StringBuilder b = new StringBuilder("## Targets (measured)\n\n");
        for (String variant : List.of("adaptive", "adaptive-recommended")) {
            if (runs.stream().anyMatch(c -> c.strategy().name().equals(variant))) {
                b.append("### ").append(variant).append("\n\n").append(table(runs, variant));
            }
        }
        for (Comparison c : runs) {
            if (c.strategy().name().startsWith("adaptive") && c.scenario().name().contains("-sink-")) {
                b.append(WindowResponse.describe(c.scenario(), c.measured(), "measured"));
                b.append(WindowResponse.describe(c.scenario(), c.model(), "model"));
            }
        }
        return b.append('\n').toString();
    }

    private static String table(List<Comparison> runs, String variant) {
        StringBuilder b = new StringBuilder();
        b.append("| scenario | adaptive / unbounded throughput | adaptive peak queued (cap) | unbounded peak queued "
                + "| adaptive / oneByOne request calls | adaptive vs oneByOne MiB/s | peak outstanding adaptive / paper-literal |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|\n");
        for (String scenario : runs.stream().map(c -> c.scenario().name()).distinct().toList()) {
            Optional<RunResult> adaptive = find(runs, scenario, variant);
            if (adaptive.isEmpty()) {
                continue;
            }
            RunResult a = adaptive.get();
            long cap = runs.stream().filter(c -> c.scenario().name().equals(scenario)).findFirst()
                    .orElseThrow().scenario().maxQueuedBytes();
            String vsUnbounded = find(runs, scenario, "unbounded").map(u -> {
                double ratio = a.mibPerSecond() / u.mibPerSecond();
                return String.format(Locale.ROOT, "%.1f%% %s", 100 * ratio, ratio >= 0.95 ? "met" : "MISSED");
            }).orElse("n/a");
            String peak = String.format(Locale.ROOT, "%s (%s) %s", ChartWriter.bytes(a.peakQueuedBytes()),
                    ChartWriter.bytes(cap), a.peakQueuedBytes() <= cap ? "met" : "MISSED");
            String unboundedPeak = find(runs, scenario, "unbounded").map(u -> ChartWriter.bytes(u.peakQueuedBytes()))
                    .orElse("n/a");
            String calls = find(runs, scenario, "oneByOne").map(o -> {
                double ratio = (double) a.requestCalls() / Math.max(1, o.requestCalls());
                return String.format(Locale.ROOT, "%d / %d = 1/%.0f %s", a.requestCalls(), o.requestCalls(),
                        1 / Math.max(ratio, 1e-9), ratio <= 1.0 / 8 ? "met" : "MISSED");
            }).orElse("n/a");
            String vsOneByOne = find(runs, scenario, "oneByOne").map(o -> {
                boolean producerSlower = scenario.startsWith("slow-producer");
                String verdict = !producerSlower ? "" : a.mibPerSecond() > o.mibPerSecond() ? " met" : " MISSED";
                return String.format(Locale.ROOT, "%.1f vs %.1f%s", a.mibPerSecond(), o.mibPerSecond(), verdict);
            }).orElse("n/a");
            String drift = find(runs, scenario, "paper-literal").map(p -> ChartWriter.items(a.peakOutstandingItems())
                    + " / " + ChartWriter.items(p.peakOutstandingItems())).orElse("n/a");
            b.append("| ").append(scenario).append(" | ").append(vsUnbounded).append(" | ").append(peak)
                    .append(" | ").append(unboundedPeak).append(" | ").append(calls).append(" | ")
                    .append(vsOneByOne).append(" | ").append(drift).append(" |\n");
        }
        return b.append('\n').toString();
    }

    private static Optional<RunResult> find(List<Comparison> runs, String scenario, String strategy) {
        return runs.stream().filter(c -> c.scenario().name().equals(scenario) && c.strategy().name().equals(strategy))
                .map(Comparison::measured).findFirst();
    }
}
