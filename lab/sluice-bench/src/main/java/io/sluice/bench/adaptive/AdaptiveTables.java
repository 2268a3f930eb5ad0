package io.sluice.bench.adaptive;

import io.sluice.lab.Csv;
import io.sluice.lab.Estimate;
import io.sluice.lab.Load;
import io.sluice.lab.Quietness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import java.util.stream.DoubleStream;

/**
 * The scenario run's tables, by the docs' block names: a pure function of the files
 * {@link ScenarioMain} writes into a results folder, so that a committed folder regenerates them
 * (scenario C's, {@code adaptive-shared-sink-*}, by {@link SharedSinkTables}).
 * Errors are {@code |predicted / measured - 1|} of throughput, one per row of
 * {@value ScenarioMain#RUNS_CSV}, for the model and for {@link ScheduleOnly}.
 */
public final class AdaptiveTables {

    /** The blocks, in the order {@link #report} prints them. */
    public static final List<String> BLOCKS = List.of(
            "adaptive-costs",
            "adaptive-model-error",
            "adaptive-families",
            "adaptive-latency-bound",
            "adaptive-targets",
            "adaptive-window-response",
            "adaptive-runs",
            "adaptive-shared-sink-runs",
            "adaptive-shared-sink-targets");

    private AdaptiveTables() {}

    /** One row of {@value ScenarioMain#RUNS_CSV}. */
    record Row(
            String scenario,
            String family,
            int itemBytes,
            String strategy,
            int repetition,
            long durationMillis,
            double measured,
            double model,
            double schedule,
            long measuredPeak,
            long modelPeak,
            long cap,
            long measuredCalls,
            long modelCalls,
            double loadBefore,
            double othersBusy) {

        double modelError() {
            return Math.abs(model / measured - 1);
        }

        double scheduleError() {
            return Math.abs(schedule / measured - 1);
        }

        double itemsPerRequest() {
            return measured * RateSchedule.MIB * durationMillis / 1e3 / itemBytes / Math.max(1, measuredCalls);
        }

        /** Small items, few per request: the request → item → write round trip sets the throughput. */
        boolean latencyBound() {
            return itemBytes <= 4096 && itemsPerRequest() <= 8;
        }
    }

    /** Whether {@code folder} holds a run of the scenarios ({@code ScenarioMain --results}). */
    public static boolean isRun(Path folder) {
        return Files.isRegularFile(folder.resolve(ScenarioMain.RUNS_CSV));
    }

    /** The tables by block name, from the files in {@code folder}. */
    public static Map<String, String> blocks(Path folder) {
        List<Row> rows = rows(folder);
        Map<String, String> blocks = new LinkedHashMap<>();
        StringBuilder costs = new StringBuilder("| cost (calibrated in this run) | value |\n|---|---:|\n");
        read(folder, ScenarioMain.COSTS_CSV, ScenarioMain.COSTS_HEADER)
                .forEach(fields -> costs.append("| ")
                        .append(fields[0])
                        .append(" | ")
                        .append(fields[1])
                        .append(" |\n"));
        blocks.put("adaptive-costs", costs.toString());
        Map<String, Predicate<Row>> overall = new LinkedHashMap<>();
        overall.put("all runs", row -> true);
        overall.put("64 KiB items", row -> row.itemBytes() == 64 * 1024);
        overall.put("1 KiB items", row -> row.itemBytes() == 1024);
        overall.put("latency-bound runs", Row::latencyBound);
        overall.put("all but latency-bound runs", row -> !row.latencyBound());
        double[] loads = rows.stream()
                .mapToDouble(Row::loadBefore)
                .filter(Double::isFinite)
                .sorted()
                .toArray();
        blocks.put(
                "adaptive-model-error",
                errors("rows", rows, overall)
                        + String.format(
                                Locale.ROOT,
                                "%n1-minute load average before a run: %s.%n",
                                loads.length == 0
                                        ? "unknown"
                                        : String.format(
                                                Locale.ROOT,
                                                "median %.2f, %.2f to %.2f",
                                                loads[loads.length / 2],
                                                loads[0],
                                                loads[loads.length - 1])));
        Map<String, Predicate<Row>> families = new LinkedHashMap<>();
        rows.stream()
                .map(Row::family)
                .distinct()
                .forEach(family -> families.put(family, row -> row.family().equals(family)));
        blocks.put("adaptive-families", errors("family", rows, families));
        blocks.put("adaptive-latency-bound", latencyBound(rows));
        blocks.put("adaptive-targets", targets(rows));
        blocks.put("adaptive-window-response", windows(folder));
        blocks.put("adaptive-runs", runs(rows));
        blocks.put("adaptive-shared-sink-runs", SharedSinkTables.runs(folder));
        blocks.put("adaptive-shared-sink-targets", "```\n" + SharedSinkTables.targets(folder) + "```\n");
        return blocks;
    }

    /** Every block under a heading: the report {@link ScenarioMain} writes beside the data. */
    public static String report(Path folder) {
        StringBuilder text = new StringBuilder("# Adaptive scenarios: measured, model, schedule-only\n\n");
        blocks(folder)
                .forEach((name, table) -> text.append("## ")
                        .append(name)
                        .append("\n\n")
                        .append(table)
                        .append('\n'));
        return text.toString();
    }

    private static String errors(String label, List<Row> rows, Map<String, Predicate<Row>> groups) {
        StringBuilder text = new StringBuilder("| " + label + " | runs | model: median error | model: within 10% "
                + "| schedule-only: median error | schedule-only: within 10% | model closer |\n"
                + "|---|---:|---:|---:|---:|---:|---:|\n");
        groups.forEach((name, filter) -> {
            List<Row> group = rows.stream().filter(filter).toList();
            if (group.isEmpty()) {
                return;
            }
            double[] model =
                    group.stream().mapToDouble(Row::modelError).sorted().toArray();
            double[] schedule =
                    group.stream().mapToDouble(Row::scheduleError).sorted().toArray();
            text.append(String.format(
                    Locale.ROOT,
                    "| %s | %d | %.1f%% | %d | %.1f%% | %d | %d |%n",
                    name,
                    group.size(),
                    100 * median(model),
                    within(model, 0.10),
                    100 * median(schedule),
                    within(schedule, 0.10),
                    group.stream()
                            .filter(row -> row.modelError() < row.scheduleError())
                            .count()));
        });
        return text.toString();
    }

    private static String latencyBound(List<Row> rows) {
        StringBuilder text = new StringBuilder("| scenario | strategy | items per request | MiB/s measured (median) "
                + "| model | schedule-only | model error |\n|---|---|---:|---:|---:|---:|---:|\n");
        for (List<Row> reps : byRun(rows).values()) {
            if (reps.stream().anyMatch(Row::latencyBound)) {
                Row first = reps.get(0);
                double measured = med(reps, Row::measured);
                text.append(String.format(
                        Locale.ROOT,
                        "| %s | %s | %.1f | %.1f | %.1f | %.1f | %.1f%% |%n",
                        first.scenario(),
                        first.strategy(),
                        med(reps, Row::itemsPerRequest),
                        measured,
                        first.model(),
                        first.schedule(),
                        100 * Math.abs(first.model() / measured - 1)));
            }
        }
        return text.toString();
    }

    /**
     * Targets 1 and 2 per scenario. Every ratio is of the means over repetitions with its 95% bootstrap
     * interval, the two strategies' runs of one repetition a pair: a repetition runs every strategy of a
     * scenario one after the other, so a drift of the machine between repetitions cancels
     * ({@link Estimate#ratioOfMeansInTurns}); a target is met only when the interval clears it,
     * missed when the interval lies on the wrong side, otherwise inconclusive. Peak queued bytes
     * are a bound, not an estimate: the largest of the repetitions against the cap.
     */
    private static String targets(List<Row> rows) {
        StringBuilder text =
                new StringBuilder("| scenario | adaptive / unbounded throughput | adaptive peak queued (cap) "
                        + "| unbounded peak queued | request calls adaptive / oneByOne | MiB/s adaptive / oneByOne |\n"
                        + "|---|---:|---:|---:|---:|---:|\n");
        Map<String, List<Row>> runs = byRun(rows);
        for (String scenario : rows.stream().map(Row::scenario).distinct().toList()) {
            List<Row> adaptive = runs.get(scenario + "/adaptive");
            List<Row> unbounded = runs.get(scenario + "/unbounded");
            List<Row> oneByOne = runs.get(scenario + "/oneByOne");
            if (adaptive == null || unbounded == null || oneByOne == null) {
                continue;
            }
            Estimate throughput = Estimate.ratioOfMeansInTurns(adaptive, unbounded, Row::repetition, Row::measured);
            long peak = adaptive.stream().mapToLong(Row::measuredPeak).max().orElseThrow();
            Estimate calls =
                    Estimate.ratioOfMeansInTurns(adaptive, oneByOne, Row::repetition, row -> row.measuredCalls());
            Estimate vsOne = Estimate.ratioOfMeansInTurns(adaptive, oneByOne, Row::repetition, Row::measured);
            text.append(String.format(
                    Locale.ROOT,
                    "| %s | %.1f%% (%.1f-%.1f%%) %s | %s (%s) %s | %s | 1/%.0f (1/%.0f-1/%.0f) %s "
                            + "| %.1f / %.1f%s |%n",
                    scenario,
                    100 * throughput.value(),
                    100 * throughput.low(),
                    100 * throughput.high(),
                    throughput.against(0.95, false),
                    ChartWriter.bytes(peak),
                    ChartWriter.bytes(adaptive.get(0).cap()),
                    peak <= adaptive.get(0).cap() ? "met" : "missed",
                    ChartWriter.bytes(unbounded.stream()
                            .mapToLong(Row::measuredPeak)
                            .max()
                            .orElseThrow()),
                    1 / calls.value(),
                    1 / calls.low(),
                    1 / calls.high(),
                    calls.against(1.0 / 8, true),
                    mean(adaptive, Row::measured),
                    mean(oneByOne, Row::measured),
                    adaptive.get(0).family().equals("slow-producer")
                            ? " = " + vsOne.format() + " " + vsOne.against(1, false)
                            : ""));
        }
        return text.append(
                        "\nMeans over repetitions, ratios with their 95% bootstrap interval (the runs of one repetition "
                                + "paired): met only when the interval "
                                + "clears the target (95%; 1/8 of the calls; faster than oneByOne), missed when it lies on the wrong "
                                + "side, otherwise inconclusive. Peak queued: the largest of the repetitions.\n")
                .toString();
    }

    private static double mean(List<Row> rows, ToDoubleFunction<Row> field) {
        return rows.stream().mapToDouble(field).average().orElseThrow();
    }

    private static String windows(Path folder) {
        Map<String, List<String[]>> bySwitch =
                read(folder, ScenarioMain.WINDOWS_CSV, ScenarioMain.WINDOWS_HEADER).stream()
                        .collect(Collectors.groupingBy(
                                fields -> fields[0] + " | " + fields[1] + " | " + fields[4] + " ms, "
                                        + (Boolean.parseBoolean(fields[5]) ? "fast → slow" : "slow → fast"),
                                LinkedHashMap::new,
                                Collectors.toList()));
        StringBuilder text = new StringBuilder("| scenario | strategy | switch | measured: window before → after, "
                + "reaction per repetition | model |\n|---|---|---|---|---|\n");
        bySwitch.forEach((key, list) -> text.append("| ")
                .append(key)
                .append(" | ")
                .append(reactions(list, "measured"))
                .append(" | ")
                .append(reactions(list, "model"))
                .append(" |\n"));
        return text.toString();
    }

    /** The reactions of {@code source}'s rows, one per repetition. */
    private static String reactions(List<String[]> rows, String source) {
        return rows.stream()
                .filter(fields -> fields[3].equals(source))
                .map(fields -> fields[8].isEmpty()
                        ? fields[6] + ", unchanged"
                        : fields[6] + " → " + fields[7] + " in " + fields[8] + " ms")
                .collect(Collectors.joining("; "));
    }

    private static String runs(List<Row> rows) {
        StringBuilder text = new StringBuilder("| scenario | strategy | MiB/s measured: median (min-max) | model "
                + "| schedule-only | peak queued measured (max) / model | request calls measured (median) / model |\n"
                + "|---|---|---:|---:|---:|---:|---:|\n");
        for (List<Row> reps : byRun(rows).values()) {
            Row first = reps.get(0);
            text.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %.1f (%.1f-%.1f) | %.1f | %.1f | %s / %s | %.0f / %d |%n",
                    first.scenario(),
                    first.strategy(),
                    med(reps, Row::measured),
                    reps.stream().mapToDouble(Row::measured).min().orElseThrow(),
                    reps.stream().mapToDouble(Row::measured).max().orElseThrow(),
                    first.model(),
                    first.schedule(),
                    ChartWriter.bytes(
                            reps.stream().mapToLong(Row::measuredPeak).max().orElseThrow()),
                    ChartWriter.bytes(first.modelPeak()),
                    med(reps, row -> row.measuredCalls()),
                    first.modelCalls()));
        }
        return text.toString();
    }

    private static Map<String, List<Row>> byRun(List<Row> rows) {
        return rows.stream()
                .collect(Collectors.groupingBy(
                        row -> row.scenario() + "/" + row.strategy(), LinkedHashMap::new, Collectors.toList()));
    }

    private static double med(List<Row> rows, ToDoubleFunction<Row> value) {
        return median(rows.stream().mapToDouble(value).sorted().toArray());
    }

    /** The median of sorted values (the mean of the middle two for an even count). */
    static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static long within(double[] errors, double limit) {
        return Arrays.stream(errors).filter(error -> error <= limit).count();
    }

    /**
     * The quiet rule over every scenario run in {@code folder}, scenario C's included: other work's share of the
     * cores during each (unknown for runs recorded before that column, which had the load average only).
     */
    public static Quietness quietness(Path folder) {
        return Quietness.of(
                "scenario run",
                DoubleStream.concat(
                                rows(folder).stream().mapToDouble(Row::othersBusy),
                                SharedSinkTables.rows(folder).stream().mapToDouble(SharedSinkTables.Row::othersBusy))
                        .mapToObj(othersBusy -> new Load(Double.NaN, Double.NaN, othersBusy))
                        .toList());
    }

    private static List<Row> rows(Path folder) {
        return read(folder, ScenarioMain.RUNS_CSV, ScenarioMain.RUNS_HEADER, ScenarioMain.RUNS_HEADER_WITHOUT_OTHERS)
                .stream()
                .map(fields -> new Row(
                        fields[0],
                        fields[1],
                        Integer.parseInt(fields[2]),
                        fields[3],
                        Integer.parseInt(fields[4]),
                        Long.parseLong(fields[5]),
                        Double.parseDouble(fields[6]),
                        Double.parseDouble(fields[7]),
                        Double.parseDouble(fields[8]),
                        Long.parseLong(fields[9]),
                        Long.parseLong(fields[10]),
                        Long.parseLong(fields[11]),
                        Long.parseLong(fields[14]),
                        Long.parseLong(fields[15]),
                        Double.parseDouble(fields[16]),
                        fields.length > 18 ? Double.parseDouble(fields[18]) : Double.NaN))
                .toList();
    }

    /** The records of {@code folder/file} after its header, which must be one of {@code headers}. */
    private static List<String[]> read(Path folder, String file, String... headers) {
        try {
            List<String> lines = Files.readAllLines(folder.resolve(file));
            if (lines.isEmpty() || !List.of(headers).contains(lines.get(0))) {
                throw new IllegalArgumentException(folder.resolve(file) + ": expected the header " + headers[0]);
            }
            return lines.subList(1, lines.size()).stream()
                    .filter(line -> !line.isBlank())
                    .map(line -> Csv.fields(line).toArray(String[]::new))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("no " + file + " in " + folder + ": the run's data is missing", e);
        }
    }
}
