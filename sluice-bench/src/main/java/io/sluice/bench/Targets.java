package io.sluice.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The benchmark's targets, checked against a report: each line says the cell, the target, the
 * measured ratio and whether it was met. They compare sluice's speed and CPU with Rio (the paper's
 * library) and with the plain-JDK code that does the same work (the loops, {@code Files.copy}), and
 * bound the heap that lent reads allocate: what the library gains or costs over code a caller could
 * write by hand. Measured here, never asserted in tests; docs/BENCHMARKS.md, "Targets: met and
 * missed", reads the results.
 */
public final class Targets {

    private Targets() {
    }

    /** One target in one cell. */
    public record Check(Cell cell, String target, double measured, double required, boolean atMost) {
        public boolean met() {
            return !Double.isNaN(measured) && (atMost ? measured <= required : measured >= required);
        }

        public String line() {
            return String.format(Locale.ROOT, "%-22s %-34s %6s (%s %.2f)  %s", cell.label(), target,
                    Report.ratio(measured), atMost ? "<=" : ">=", required,
                    Double.isNaN(measured) ? "n/a" : met() ? "met" : "MISSED");
        }
    }

    public static List<Check> evaluate(Report report) {
        List<Check> checks = new ArrayList<>();
        for (Map.Entry<Cell, List<Row>> entry : report.rowsByCell().entrySet()) {
            Cell cell = entry.getKey();
            switch (cell.op()) {
                case WRITE: {
                    double factor = cell.parallelism() == 1 ? 3 : 2;
                    checks.add(new Check(cell, "sluice / rio speed", report.speedRatio(cell, "sluice", "rio"), factor, false));
                    checks.add(new Check(cell, "sluice / loop speed", report.speedRatio(cell, "sluice", "loop"), factor, false));
                    checks.add(new Check(cell, "sluice / loop-gather speed",
                            report.speedRatio(cell, "sluice", "loop-gather"), 0.8, false));
                    checks.add(new Check(cell, "sluice / rio CPU per GiB", cpuRatio(report, cell, "sluice", "rio"), 0.5, true));
                    break;
                }
                case READ:
                    checks.add(new Check(cell, "sluice / rio speed", report.speedRatio(cell, "sluice", "rio"), 3, false));
                    checks.add(new Check(cell, "sluice / loop (8 KiB) speed", report.speedRatio(cell, "sluice", "loop"), 0.8, false));
                    checks.add(new Check(cell, "sluice-lent / loop (8 KiB) speed",
                            report.speedRatio(cell, "sluice-lent", "loop"), 1, false));
                    checks.add(new Check(cell, "sluice-lent / loop-direct-64k speed",
                            report.speedRatio(cell, "sluice-lent", "loop-direct-64k"), 0.85, false));
                    checks.add(new Check(cell, "sluice-lent heap MiB per GiB", allocated(report, cell, "sluice-lent"), 16, true));
                    break;
                case COPY:
                    checks.add(new Check(cell, "sluice-lent (write(read)) / copyTo",
                            report.speedRatio(cell, "sluice-lent", "sluice"), 0.7, false));
                    checks.add(new Check(cell, "sluice-lent (write(read)) / loop",
                            report.speedRatio(cell, "sluice-lent", "loop"), 1, false));
                    checks.add(new Check(cell, "sluice / loop speed", report.speedRatio(cell, "sluice", "loop"), 1, false));
                    checks.add(new Check(cell, "sluice / files-copy speed",
                            report.speedRatio(cell, "sluice", "files-copy"), 1, false));
                    checks.add(new Check(cell, "sluice / rio speed", report.speedRatio(cell, "sluice", "rio"), 2, false));
                    break;
                default:
                    break;
            }
        }
        return checks;
    }

    private static double allocated(Report report, Cell cell, String provider) {
        Optional<Row> row = report.row(cell, provider);
        return row.isPresent() && row.get().ok() ? row.get().allocatedMiBPerGiB() : Double.NaN;
    }

    private static double cpuRatio(Report report, Cell cell, String a, String b) {
        Optional<Row> first = report.row(cell, a);
        Optional<Row> second = report.row(cell, b);
        if (first.isEmpty() || second.isEmpty() || !first.get().ok() || !second.get().ok()) {
            return Double.NaN;
        }
        return first.get().cpuSecondsPerGiB() / second.get().cpuSecondsPerGiB();
    }

    public static String text(Report report) {
        List<Check> checks = evaluate(report);
        long met = checks.stream().filter(Check::met).count();
        long measured = checks.stream().filter(check -> !Double.isNaN(check.measured())).count();
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "targets: %d of %d measured checks met%n", met, measured));
        checks.forEach(check -> out.append("  ").append(check.line()).append('\n'));
        return out.toString();
    }
}
