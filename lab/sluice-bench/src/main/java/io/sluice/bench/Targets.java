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
 * missed or inconclusive by its measured figure's 95% interval ({@link Estimate#against}); one
 * whose provider or baseline has no correct row in a cell is "not measured" there, counted, never
 * dropped. Measured here, never asserted in tests; lab/docs/BENCHMARKS.md, "Targets: met, missed,
 * inconclusive", reads them.
 *
 * <p>The speed targets against the plain loops are stated against the loop a careful engineer
 * writes for the same work (lab/docs/BENCHMARK-METHOD.md):
 * <ul>
 * <li>writes: at least 0.90x {@code loop-reused-staged-256k}, which stages the chunks in the
 *     thread's direct buffer as sluice's writer does; the 10% is what the reactive hand-offs may
 *     cost;</li>
 * <li>lent reads: at least 1.00x {@code loop-reused-direct-64k}: both read into a reused 64 KiB
 *     direct buffer, so nothing but the hand-off to the subscriber differs;</li>
 * <li>copies: {@code copyTo} at least 1.00x {@code loop-transfer}, both {@code transferTo};
 *     {@code write(read(lent))} at least 1.00x {@code loop-reused-direct-64k}, which also reads into
 *     a reused direct buffer and writes from it: a copy through user space against the best copy
 *     through user space. It restates 0.80x of {@code loop-transfer} ({@link #BEFORE_TRANSFER_COPY}),
 *     a bar no pass through user space clears on this machine: the careful loop itself moved at
 *     about seven tenths of {@code loop-transfer} from 10 MiB in the 2026-11-28 run, since
 *     {@code transferTo} keeps the bytes in the kernel.</li>
 * </ul>
 * A run without those loops' rows reads "not measured" for these targets. Beside them, for one
 * release, stand the targets they restate, each marked so a reader tells them apart: those against
 * the 8 KiB heap {@code loop} (3x single and 2x parallel writes, 1x lent reads and copies;
 * {@link #BEFORE_HEAP_LOOP}) and lent reads at 0.85x {@code loop-direct-64k}, the loop that takes
 * its buffers from a pool ({@link #BEFORE_LENT_DIRECT}), so that a run's verdicts read beside those
 * of runs that had only these. The owned read's 0.8x of the 8 KiB loop is not restated.
 *
 * <p>Files below 1 MiB are bound by what each operation costs (open, size, close, completion)
 * rather than by moving bytes, and have targets of their own, marked {@link #SMALL_FILES}:
 * <ul>
 * <li>writes at least 1.00x {@code loop-reused-staged-256k};</li>
 * <li>reads, owned and lent, at least 1.00x {@code loop-reused-direct-64k};</li>
 * <li>{@code write(read(lent))} copies at least 1.00x {@code loop-reused-direct-64k}, which copies
 *     through the thread's direct buffer ({@code copyTo}'s 1.00x of {@code loop-transfer} holds for
 *     every size);</li>
 * <li>lent reads at most 64 MiB of heap allocated per GiB read, and no more garbage than the file's
 *     size for files below 16 KiB ({@link #smallLentHeapMiBPerGiB}).</li>
 * </ul>
 */
public final class Targets {

    private Targets() {}

    /** The mark of a target stated against the 8 KiB heap loop, kept beside its restatement. */
    static final String BEFORE_HEAP_LOOP = "(before: against loop, 8 KiB heap)";
    /** The mark of the lent reads' earlier, lower bar against the pooled direct-buffer loop. */
    static final String BEFORE_LENT_DIRECT = "(before: 0.85x of loop-direct-64k)";
    /** The mark of the earlier bar for {@code write(read(lent))}, against a copy that stays in the kernel. */
    static final String BEFORE_TRANSFER_COPY = "(before: 0.80x of loop-transfer)";

    /** The mark of the targets set for files below 1 MiB. */
    static final String SMALL_FILES = "(small files)";

    /** One target in one cell; {@code note} marks a target kept beside its restatement, else empty. */
    public record Check(Cell cell, String target, Estimate measured, double required, boolean atMost, String note) {
        public Estimate.Verdict verdict() {
            return measured.against(required, atMost);
        }

        /** {@code read: sluice / rio speed >= 3.00}, then the note if there is one. */
        public String goal() {
            return String.format(
                            Locale.ROOT,
                            "%s: %s %s %.2f",
                            cell.op().name().toLowerCase(Locale.ROOT),
                            target,
                            atMost ? "<=" : ">=",
                            required)
                    + (note.isEmpty() ? "" : " " + note);
        }

        public String line() {
            return String.format(
                            Locale.ROOT,
                            "%-22s %-36s %-20s (%s %.2f)  %s",
                            cell.label(),
                            target,
                            measured.format(),
                            atMost ? "<=" : ">=",
                            required,
                            switch (verdict()) {
                                case MISSED -> "MISSED";
                                case NOT_MEASURED -> "not measured";
                                default -> verdict().toString();
                            })
                    + (note.isEmpty() ? "" : "  " + note);
        }
    }

    /**
     * The lent-chunk targets are set for files of 1 MiB to 100 MiB; below, a file is a few chunks
     * between an open and a close, and the small files' targets apply.
     */
    private static final long LENT_TARGETS_FROM = 1024 * 1024;

    public static List<Check> evaluate(Report report) {
        List<Check> checks = new ArrayList<>();
        for (Cell cell : report.rowsByCell().keySet()) {
            Speed speed = (target, provider, baseline, required, note) -> checks.add(
                    new Check(cell, target, report.speedRatio(cell, provider, baseline), required, false, note));
            switch (cell.op()) {
                case WRITE -> {
                    double factor = cell.parallelism() == 1 ? 3 : 2;
                    speed.check("sluice / rio speed", "sluice", "rio", factor, "");
                    speed.check("sluice / loop-reused-staged-256k speed", "sluice", "loop-reused-staged-256k", 0.9, "");
                    speed.check("sluice / loop speed", "sluice", "loop", factor, BEFORE_HEAP_LOOP);
                    speed.check("sluice / loop-gather speed", "sluice", "loop-gather", 0.8, "");
                    checks.add(new Check(
                            cell,
                            "sluice / rio CPU per GiB",
                            report.ratio(cell, "sluice", "rio", Sample::cpuNanos, false),
                            0.5,
                            true,
                            ""));
                    if (cell.sizeBytes() < LENT_TARGETS_FROM) {
                        speed.check(
                                "sluice / loop-reused-staged-256k speed",
                                "sluice",
                                "loop-reused-staged-256k",
                                1,
                                SMALL_FILES);
                    }
                }
                case READ -> {
                    speed.check("sluice / rio speed", "sluice", "rio", 3, "");
                    speed.check("sluice / loop (8 KiB) speed", "sluice", "loop", 0.8, "");
                    if (cell.sizeBytes() >= LENT_TARGETS_FROM) {
                        speed.check(
                                "sluice-lent / loop-reused-direct-64k speed",
                                "sluice-lent",
                                "loop-reused-direct-64k",
                                1,
                                "");
                        speed.check("sluice-lent / loop (8 KiB) speed", "sluice-lent", "loop", 1, BEFORE_HEAP_LOOP);
                        speed.check(
                                "sluice-lent / loop-direct-64k speed",
                                "sluice-lent",
                                "loop-direct-64k",
                                0.85,
                                BEFORE_LENT_DIRECT);
                        checks.add(new Check(
                                cell,
                                "sluice-lent heap MiB per GiB",
                                allocated(report, cell, "sluice-lent"),
                                16,
                                true,
                                ""));
                    } else {
                        speed.check(
                                "sluice / loop-reused-direct-64k speed",
                                "sluice",
                                "loop-reused-direct-64k",
                                1,
                                SMALL_FILES);
                        speed.check(
                                "sluice-lent / loop-reused-direct-64k speed",
                                "sluice-lent",
                                "loop-reused-direct-64k",
                                1,
                                SMALL_FILES);
                        checks.add(new Check(
                                cell,
                                "sluice-lent heap MiB per GiB",
                                allocated(report, cell, "sluice-lent"),
                                smallLentHeapMiBPerGiB(cell),
                                true,
                                SMALL_FILES));
                    }
                }
                case COPY -> {
                    if (cell.sizeBytes() >= LENT_TARGETS_FROM) {
                        speed.check("sluice-lent (write(read)) / copyTo", "sluice-lent", "sluice", 0.7, "");
                        speed.check(
                                "sluice-lent (write(read)) / loop-reused-direct-64k",
                                "sluice-lent",
                                "loop-reused-direct-64k",
                                1,
                                "");
                        speed.check(
                                "sluice-lent (write(read)) / loop-transfer",
                                "sluice-lent",
                                "loop-transfer",
                                0.8,
                                BEFORE_TRANSFER_COPY);
                        speed.check("sluice-lent (write(read)) / loop", "sluice-lent", "loop", 1, BEFORE_HEAP_LOOP);
                    } else {
                        speed.check(
                                "sluice-lent (write(read)) / loop-reused-direct-64k",
                                "sluice-lent",
                                "loop-reused-direct-64k",
                                1,
                                SMALL_FILES);
                    }
                    speed.check("sluice / loop-transfer speed", "sluice", "loop-transfer", 1, "");
                    speed.check("sluice / loop speed", "sluice", "loop", 1, BEFORE_HEAP_LOOP);
                    speed.check("sluice / files-copy speed", "sluice", "files-copy", 1, "");
                    speed.check("sluice / rio speed", "sluice", "rio", 2, "");
                }
                default -> {}
            }
        }
        return checks;
    }

    /**
     * The heap a lent read of a file below 1 MiB may allocate, MiB per GiB read: 64, or 1 KiB per
     * file where that is more (files below 16 KiB: 1,024 MiB per GiB of 1 KiB files). 64 MiB per
     * GiB is 64 bytes per 1 KiB file, which no code that opens a file meets: the JDK's open and close
     * alone allocate several hundred bytes per file ({@code FileChannelImpl}, its descriptor and
     * cleaner, the path's bytes; {@code loop-reused-direct-64k} allocates over 800 bytes per 1 KiB
     * file in the {@code phases} tool), so below 16 KiB the target is that a read's garbage is
     * not more than the file it reads.
     */
    static double smallLentHeapMiBPerGiB(Cell cell) {
        return Math.max(64, 1024.0 * 1024 / cell.sizeBytes());
    }

    /** Adds a check that {@code provider}'s speed over {@code baseline}'s is at least {@code required}. */
    private interface Speed {
        void check(String target, String provider, String baseline, double required, String note);
    }

    /** Heap allocated per GiB moved, MiB, with its interval. */
    private static Estimate allocated(Report report, Cell cell, String provider) {
        double gib = cell.totalBytes() / (1024.0 * 1024 * 1024);
        return report.row(cell, provider)
                .filter(Row::ok)
                .map(row -> Estimate.mean(row.each(sample -> sample.allocatedBytes() / (1024.0 * 1024) / gib)))
                .orElse(Estimate.NONE);
    }

    private static String counts(List<Check> checks) {
        Map<Estimate.Verdict, Long> counts =
                checks.stream().collect(Collectors.groupingBy(Check::verdict, Collectors.counting()));
        long unmeasured = counts.getOrDefault(Estimate.Verdict.NOT_MEASURED, 0L);
        return String.format(
                Locale.ROOT,
                "%d met, %d missed, %d inconclusive of %d measured, %d not measured",
                counts.getOrDefault(Estimate.Verdict.MET, 0L),
                counts.getOrDefault(Estimate.Verdict.MISSED, 0L),
                counts.getOrDefault(Estimate.Verdict.INCONCLUSIVE, 0L),
                checks.size() - unmeasured,
                unmeasured);
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
        StringBuilder md =
                new StringBuilder("| Target | Result | Range | Not met (95% interval) |\n|---|---|---|---|\n");
        byGoal.forEach((goal, checks) -> {
            List<Check> measured = checks.stream()
                    .filter(check -> check.verdict() != Estimate.Verdict.NOT_MEASURED)
                    .toList();
            DoubleSummaryStatistics range = measured.stream()
                    .mapToDouble(check -> check.measured().value())
                    .summaryStatistics();
            List<String> notMet = checks.stream()
                    .filter(check -> check.verdict() != Estimate.Verdict.MET)
                    .map(check -> check.verdict() == Estimate.Verdict.NOT_MEASURED
                            ? check.cell().label() + " not measured"
                            : check.cell().label() + " " + check.measured().format() + " " + check.verdict())
                    .toList();
            long met = checks.size() - notMet.size();
            long unmeasured = checks.size() - measured.size();
            String result = String.format(Locale.ROOT, "met in %d of %d", met, measured.size())
                    + (unmeasured == 0 ? "" : String.format(Locale.ROOT, ", %d not measured", unmeasured));
            String figures =
                    measured.isEmpty() ? "-" : String.format(Locale.ROOT, "%.2f-%.2f", range.getMin(), range.getMax());
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %s | %s |%n",
                    goal,
                    met == checks.size() ? "**" + result + "**" : result,
                    figures,
                    String.join("; ", notMet)));
        });
        return md.toString();
    }
}
