package io.sluice.bench;

import io.sluice.lab.Estimate;
import java.util.ArrayList;
import java.util.DoubleSummaryStatistics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The benchmark's targets, checked against a report: sluice's speed and CPU against Rio and the
 * plain-JDK code that does the same work, and the heap lent reads allocate. A target is met,
 * missed or inconclusive by its measured figure's 95% interval ({@link Estimate#against}).
 * Measured here, never asserted in tests; lab/docs/BENCHMARKS.md, "Targets: met, missed, inconclusive", reads them.
 */
public final class Targets {

    private Targets() {
    }

    /** One target in one cell. */
    public record Check(Cell cell, String target, Estimate measured, double required, boolean atMost) {
        public Estimate.Verdict verdict() {
            return measured.against(required, atMost);
        }

        /** {@code read: sluice / rio speed >= 3.00}. */
        public String goal() {
            return String.format(Locale.ROOT, "%s: %s %s %.2f", cell.op().name().toLowerCase(Locale.ROOT), target,
                    atMost ? "<=" : ">=", required);
        }

        public String line() {
            return String.format(Locale.ROOT, "%-22s %-36s %-20s (%s %.2f)  %s", cell.label(), target,
                    measured.format(), atMost ? "<=" : ">=", required,
                    verdict() == Estimate.Verdict.MISSED ? "MISSED" : verdict());
        }
    }

    /** The lent-chunk targets are set for files of 1 MiB to 100 MiB; a 1 KiB file is one open, one chunk, one close. */
    private static final long LENT_TARGETS_FROM = 1024 * 1024;

    public static List<Check> evaluate(Report report) {
        List<Check> checks = new ArrayList<>();
        for (Cell cell : report.rowsByCell().keySet()) {
            Speed speed = (target, provider, baseline, required) ->
                    checks.add(new Check(cell, target, report.speedRatio(cell, provider, baseline), required, false));
            switch (cell.op()) {
                case WRITE -> {
                    double factor = cell.parallelism() == 1 ? 3 : 2;
                    speed.check("sluice / rio speed", "sluice", "rio", factor);
                    speed.check("sluice / loop speed", "sluice", "loop", factor);
                    speed.check("sluice / loop-gather speed", "sluice", "loop-gather", 0.8);
                    checks.add(new Check(cell, "sluice / rio CPU per GiB",
                            report.ratio(cell, "sluice", "rio", Sample::cpuNanos, false), 0.5, true));
                }
                case READ -> {
                    speed.check("sluice / rio speed", "sluice", "rio", 3);
                    speed.check("sluice / loop (8 KiB) speed", "sluice", "loop", 0.8);
                    if (cell.sizeBytes() >= LENT_TARGETS_FROM) {
                        speed.check("sluice-lent / loop (8 KiB) speed", "sluice-lent", "loop", 1);
                        speed.check("sluice-lent / loop-direct-64k speed", "sluice-lent", "loop-direct-64k", 0.85);
                        checks.add(new Check(cell, "sluice-lent heap MiB per GiB",
                                allocated(report, cell, "sluice-lent"), 16, true));
                    }
                }
                case COPY -> {
                    if (cell.sizeBytes() >= LENT_TARGETS_FROM) {
                        speed.check("sluice-lent (write(read)) / copyTo", "sluice-lent", "sluice", 0.7);
                        speed.check("sluice-lent (write(read)) / loop", "sluice-lent", "loop", 1);
                    }
                    speed.check("sluice / loop speed", "sluice", "loop", 1);
                    speed.check("sluice / files-copy speed", "sluice", "files-copy", 1);
                    speed.check("sluice / rio speed", "sluice", "rio", 2);
                }
                default -> {
                }
            }
        }
        return checks;
    }

    /** Adds a check that {@code provider}'s speed over {@code baseline}'s is at least {@code required}. */
    private interface Speed {
        void check(String target, String provider, String baseline, double required);
    }

    /** Heap allocated per GiB moved, MiB, with its interval. */
    private static Estimate allocated(Report report, Cell cell, String provider) {
        double gib = cell.totalBytes() / (1024.0 * 1024 * 1024);
        return report.row(cell, provider).filter(Row::ok)
                .map(row -> Estimate.mean(row.each(sample -> sample.allocatedBytes() / (1024.0 * 1024) / gib)))
                .orElse(Estimate.NONE);
    }

    private static String counts(List<Check> checks) {
        Map<Estimate.Verdict, Long> counts = checks.stream().collect(Collectors.groupingBy(Check::verdict,
                Collectors.counting()));
        long measured = checks.size() - counts.getOrDefault(Estimate.Verdict.NOT_MEASURED, 0L);
        return String.format(Locale.ROOT, "%d met, %d missed, %d inconclusive of %d measured",
                counts.getOrDefault(Estimate.Verdict.MET, 0L), counts.getOrDefault(Estimate.Verdict.MISSED, 0L),
                counts.getOrDefault(Estimate.Verdict.INCONCLUSIVE, 0L), measured);
    }

    /** Every check, one per line, with the measured figure's 95% interval. */
    public static String text(Report report) {
        List<Check> checks = evaluate(report);
        StringBuilder out = new StringBuilder("targets: " + counts(checks) + " checks (95% bootstrap intervals)\n");
        checks.forEach(check -> out.append("  ").append(check.line()).append('\n'));
        return out.toString();
    }

    /**
     * A Markdown table with one line per target: in how many cells it was met of those measured,
     * how many it could not be measured in (a provider missing or failed: counted, never dropped),
     * the range of the measured figures, and every cell where it was not met, with its interval
     * and verdict.
     */
    public static String summary(Report report) {
        Map<String, List<Check>> byGoal = evaluate(report).stream()
                .collect(Collectors.groupingBy(Check::goal, LinkedHashMap::new, Collectors.toList()));
        StringBuilder md = new StringBuilder("| Target | Result | Range | Not met (95% interval) |\n|---|---|---|---|\n");
        byGoal.forEach((goal, checks) -> {
            List<Check> measured = checks.stream()
                    .filter(check -> check.verdict() != Estimate.Verdict.NOT_MEASURED).toList();
            DoubleSummaryStatistics range = measured.stream().mapToDouble(check -> check.measured().value())
                    .summaryStatistics();
            List<String> notMet = checks.stream().filter(check -> check.verdict() != Estimate.Verdict.MET)
                    .map(check -> check.verdict() == Estimate.Verdict.NOT_MEASURED
                            ? check.cell().label() + " not measured"
                            : check.cell().label() + " " + check.measured().format() + " " + check.verdict())
                    .toList();
            long met = checks.size() - notMet.size();
            long unmeasured = checks.size() - measured.size();
            String result = String.format(Locale.ROOT, "met in %d of %d", met, measured.size())
                    + (unmeasured == 0 ? "" : String.format(Locale.ROOT, ", %d not measured", unmeasured));
            String figures = measured.isEmpty() ? "-"
                    : String.format(Locale.ROOT, "%.2f-%.2f", range.getMin(), range.getMax());
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s |%n", goal,
                    met == checks.size() ? "**" + result + "**" : result, figures, String.join("; ", notMet)));
        });
        return md.toString();
    }
}
