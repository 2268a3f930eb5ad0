package io.sluice.bench.adaptive;

import io.sluice.lab.Csv;
import io.sluice.lab.Estimate;
import io.sluice.lab.Estimate.Verdict;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * Scenario C's tables and targets ({@link SharedSink}), a pure function of {@value SharedSinkResult#CSV} in a
 * results folder. Each figure is a mean over the repetitions with its 95% bootstrap interval
 * ({@link Estimate}): a target is met when the whole interval clears it, missed when the whole interval lies on
 * the wrong side, inconclusive otherwise; one repetition has no width, so it is met or missed.
 *
 * <p>The targets at full scale: adaptive at least {@value #FULL_MIB_PER_SECOND} MiB/s in all (its ideal, what
 * the paced producers and the sink allow together, is 106-115 MiB/s) and at least {@value #FULL_BEST_FIXED_RATIO}x
 * the best fixed window; at most {@value #MAX_QUEUED_MIB} MiB queued in all eight writers; its window shrinks
 * after every fast-to-slow switch it lives through; and the control, with neither a window nor a byte bound,
 * queues at least {@value #FULL_CONTROL_MIB} MiB or runs out of memory, so that the bound is shown to matter.
 * The unpaced producers outrun the sink in both periods: their targets are on memory only. At smoke scale
 * (CI, a machine shared with other builds) the speed targets are ratios with headroom (0.5x the ideal and 0.5x
 * the best fixed window: a quiet machine comes close to 1.0x of both, so only a stall or a halving fails them,
 * not seconds of another build's load), the per-switch target becomes "larger in fast periods than in slow
 * ones, over time" (at 0.5 s periods whether the window stands above its floor at the instant of a switch is
 * close to a coin flip), and the control's threshold is the bound itself (8 x 32 MiB cannot queue 512 MiB).
 * A target whose strategies did not run in the folder (a run of one kind of producers) is not measured, and
 * the verdict over all of them is then inconclusive, never met.
 */
final class SharedSinkTables {

    static final double FULL_MIB_PER_SECOND = 93;
    static final double FULL_BEST_FIXED_RATIO = 0.95;
    static final double SMOKE_IDEAL_RATIO = 0.5;
    static final double SMOKE_BEST_FIXED_RATIO = 0.5;
    static final double MAX_QUEUED_MIB = 32;
    static final double FULL_CONTROL_MIB = 512;
    static final double SMOKE_CONTROL_MIB = MAX_QUEUED_MIB;

    private SharedSinkTables() {}

    /** One row of {@value SharedSinkResult#CSV}. */
    record Row(
            String scale,
            String producers,
            String strategy,
            int repetition,
            double seconds,
            double mibPerSecond,
            double idealMibPerSecond,
            long peakQueuedBytes,
            boolean outOfMemory,
            int switches,
            int shrank,
            int aboveFloor,
            long smallestWindow,
            long largestWindow,
            double meanFastWindow,
            double meanSlowWindow,
            double othersBusy) {

        double peakQueuedMib() {
            return peakQueuedBytes / RateSchedule.MIB;
        }

        /** The share of the judged switches the window shrank after; 0 if none was judged. */
        double shrankShare() {
            return switches == 0 ? 0 : (double) shrank / switches;
        }
    }

    /** Whether {@code folder} holds a scenario C run. */
    static boolean isRun(Path folder) {
        return Files.isRegularFile(folder.resolve(SharedSinkResult.CSV));
    }

    /** The rows of {@code folder}'s run; none if it holds no scenario C run. */
    static List<Row> rows(Path folder) {
        if (!isRun(folder)) {
            return List.of();
        }
        try {
            return Csv.read(
                    folder.resolve(SharedSinkResult.CSV),
                    List.of(SharedSinkResult.HEADER),
                    (header, fields) -> new Row(
                            fields.get(0),
                            fields.get(1),
                            fields.get(2),
                            Integer.parseInt(fields.get(3)),
                            Double.parseDouble(fields.get(7)),
                            Double.parseDouble(fields.get(8)),
                            fields.get(9).isEmpty() ? Double.NaN : Double.parseDouble(fields.get(9)),
                            Long.parseLong(fields.get(10)),
                            Boolean.parseBoolean(fields.get(11)),
                            Integer.parseInt(fields.get(12)),
                            Integer.parseInt(fields.get(13)),
                            Integer.parseInt(fields.get(14)),
                            Long.parseLong(fields.get(15)),
                            Long.parseLong(fields.get(16)),
                            Double.parseDouble(fields.get(17)),
                            Double.parseDouble(fields.get(18)),
                            Double.parseDouble(fields.get(21))));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every producers and strategy: its figures over the repetitions. */
    static String runs(Path folder) {
        List<Row> rows = rows(folder);
        if (rows.isEmpty()) {
            return "Scenario C was not run in this folder.\n";
        }
        StringBuilder text = new StringBuilder(setUp(rows))
                .append(
                        ".\n\n| producers | strategy | aggregate MiB/s, mean (95% interval) | s, mean | peak queued MiB "
                                + "(all writers; max) | stream 0 window, items (min..max) | mean window, fast / slow "
                                + "| window shrank after fast → slow (above its floor) |\n"
                                + "|---|---|---:|---:|---:|---|---|---|\n");
        byCase(rows).forEach((key, group) -> {
            Row first = group.get(0);
            long smallest = group.stream().mapToLong(Row::smallestWindow).min().orElseThrow();
            long largest = group.stream().mapToLong(Row::largestWindow).max().orElseThrow();
            boolean unbounded = largest == Long.MAX_VALUE;
            long oom = group.stream().filter(Row::outOfMemory).count();
            text.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %s | %.1f | %.1f%s | %s | %s | %s |%n",
                    first.producers(),
                    first.strategy(),
                    mean(group, Row::mibPerSecond).format(),
                    group.stream().mapToDouble(Row::seconds).average().orElseThrow(),
                    group.stream().mapToDouble(Row::peakQueuedMib).max().orElseThrow(),
                    oom > 0 ? " (" + oom + " out of memory)" : "",
                    unbounded ? "unbounded" : smallest == largest ? Long.toString(smallest) : smallest + ".." + largest,
                    unbounded
                            ? "unbounded"
                            : String.format(
                                    Locale.ROOT,
                                    "%.0f / %.0f",
                                    average(group, Row::meanFastWindow),
                                    average(group, Row::meanSlowWindow)),
                    unbounded
                            ? "-"
                            : String.format(
                                    Locale.ROOT,
                                    "%d of %d (%d)",
                                    group.stream().mapToInt(Row::shrank).sum(),
                                    group.stream().mapToInt(Row::switches).sum(),
                                    group.stream().mapToInt(Row::aboveFloor).sum())));
        });
        return text.append("\nMean window: time-weighted over fast and over slow periods, averaged over the "
                        + "repetitions; switches: summed over them.\n")
                .toString();
    }

    /** The targets, one line each with its figure, interval and verdict, and the verdict over all of them. */
    static String targets(Path folder) {
        List<Row> rows = rows(folder);
        if (rows.isEmpty()) {
            return "Scenario C was not run in this folder.\n";
        }
        boolean full = rows.get(0).scale().equals(SharedSink.FULL.scale());
        List<Row> paced = of(rows, SharedSink.Producers.PACED);
        List<Row> unpaced = of(rows, SharedSink.Producers.UNPACED);
        List<Row> adaptive = strategy(paced, "adaptive");
        List<String> lines = new ArrayList<>();
        lines.add(setUp(rows));
        List<Verdict> verdicts = new ArrayList<>();
        if (full) {
            verdicts.add(line(
                    lines,
                    String.format(Locale.ROOT, "adaptive aggregate MiB/s >= %.0f", FULL_MIB_PER_SECOND),
                    mean(adaptive, Row::mibPerSecond),
                    FULL_MIB_PER_SECOND,
                    false));
        } else {
            verdicts.add(line(
                    lines,
                    String.format(Locale.ROOT, "adaptive MiB/s / the ideal for its run >= %.2f", SMOKE_IDEAL_RATIO),
                    mean(adaptive, row -> row.mibPerSecond() / row.idealMibPerSecond()),
                    SMOKE_IDEAL_RATIO,
                    false));
        }
        String bestFixed = paced.stream()
                .map(Row::strategy)
                .filter(name -> name.startsWith("fixed"))
                .distinct()
                .max(Comparator.comparingDouble(name -> average(strategy(paced, name), Row::mibPerSecond)))
                .orElse("fixed");
        double ratio = full ? FULL_BEST_FIXED_RATIO : SMOKE_BEST_FIXED_RATIO;
        verdicts.add(line(
                lines,
                String.format(Locale.ROOT, "adaptive / the best fixed window (%s) MiB/s >= %.2f", bestFixed, ratio),
                Estimate.ratioOfMeansInTurns( // a repetition runs every strategy once: its runs are a pair
                        adaptive, strategy(paced, bestFixed), Row::repetition, Row::mibPerSecond),
                ratio,
                false));
        verdicts.add(queued(lines, "", adaptive));
        if (full) {
            verdicts.add(line(
                    lines,
                    "adaptive window shrank after every fast → slow switch (share of the switches) >= 1",
                    mean(adaptive, Row::shrankShare),
                    1,
                    false));
        } else {
            verdicts.add(line(
                    lines,
                    "adaptive mean window in fast periods - in slow ones, items > 0",
                    mean(adaptive, row -> row.meanFastWindow() - row.meanSlowWindow()),
                    Double.MIN_VALUE,
                    false));
            lines.add(String.format(
                    Locale.ROOT,
                    "  (not a target at this scale: the window shrank after %d of %d fast → slow switches)",
                    adaptive.stream().mapToInt(Row::shrank).sum(),
                    adaptive.stream().mapToInt(Row::switches).sum()));
        }
        verdicts.add(control(lines, "", paced, full));
        verdicts.add(queued(lines, "unpaced: ", strategy(unpaced, "adaptive")));
        verdicts.add(control(lines, "unpaced: ", unpaced, full));
        lines.add("=> " + Verdict.every(verdicts));
        return String.join("\n", lines) + "\n";
    }

    private static Verdict queued(List<String> lines, String prefix, List<Row> adaptive) {
        return line(
                lines,
                String.format(Locale.ROOT, "%sadaptive peak queued MiB, all writers <= %.0f", prefix, MAX_QUEUED_MIB),
                mean(adaptive, Row::peakQueuedMib),
                MAX_QUEUED_MIB,
                true);
    }

    /** The control queues at least the threshold or runs out of memory (which counts as the threshold). */
    private static Verdict control(List<String> lines, String prefix, List<Row> rows, boolean full) {
        double threshold = full ? FULL_CONTROL_MIB : SMOKE_CONTROL_MIB;
        return line(
                lines,
                String.format(
                        Locale.ROOT,
                        "%scontrol (%s, no byte bound) peak queued MiB >= %.0f, or out of memory",
                        prefix,
                        SharedSink.CONTROL,
                        threshold),
                mean(strategy(rows, SharedSink.CONTROL), row -> row.outOfMemory() ? threshold : row.peakQueuedMib()),
                threshold,
                false);
    }

    /** Adds {@code label: figure (interval) verdict} and returns the verdict. */
    private static Verdict line(List<String> lines, String label, Estimate measured, double target, boolean atMost) {
        Verdict verdict = measured.against(target, atMost);
        lines.add(label + ": " + measured.format() + ": " + verdict);
        return verdict;
    }

    private static String setUp(List<Row> rows) {
        Row first = rows.get(0);
        long repetitions = rows.stream().mapToInt(Row::repetition).distinct().count();
        SharedSink size = SharedSink.named(first.scale());
        return size.describe() + "; " + repetitions + " repetition(s)";
    }

    private static Map<String, List<Row>> byCase(List<Row> rows) {
        return rows.stream()
                .collect(Collectors.groupingBy(
                        row -> row.producers() + "/" + row.strategy(), LinkedHashMap::new, Collectors.toList()));
    }

    private static List<Row> of(List<Row> rows, SharedSink.Producers producers) {
        return rows.stream()
                .filter(row -> row.producers().equals(producers.label))
                .toList();
    }

    private static List<Row> strategy(List<Row> rows, String name) {
        return rows.stream().filter(row -> row.strategy().equals(name)).toList();
    }

    private static double[] values(List<Row> rows, ToDoubleFunction<Row> figure) {
        return rows.stream().mapToDouble(figure).toArray();
    }

    private static Estimate mean(List<Row> rows, ToDoubleFunction<Row> figure) {
        return Estimate.mean(values(rows, figure));
    }

    private static double average(List<Row> rows, ToDoubleFunction<Row> figure) {
        return rows.stream().mapToDouble(figure).average().orElse(Double.NaN);
    }
}
