package io.sluice.bench;

import io.sluice.bench.providers.Providers;
import io.sluice.lab.Estimate;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/** Turns samples into rows and tables: the full Markdown table and the compact console table. */
public final class Report {

    private static final List<String> PEERS = List.of("rio", "vertx", "spring");

    private static final Comparator<Cell> CELL_ORDER =
            Comparator.comparing(Cell::op).thenComparingLong(Cell::sizeBytes).thenComparingInt(Cell::parallelism);
    /** Failed rows last, the others fastest first. */
    private static final Comparator<Row> ROW_ORDER = Comparator.comparing((Row row) -> !row.ok())
            .thenComparing(Comparator.comparingDouble(Row::mibPerSecond).reversed());

    private final Map<Cell, List<Row>> rowsByCell = new LinkedHashMap<>();

    public Report(List<Sample> samples) {
        Map<Cell, Map<String, List<Sample>>> grouped = samples.stream()
                .collect(Collectors.groupingBy(
                        Sample::cell,
                        LinkedHashMap::new,
                        Collectors.groupingBy(Sample::provider, LinkedHashMap::new, Collectors.toList())));
        grouped.keySet().stream()
                .sorted(CELL_ORDER)
                .forEach(cell -> rowsByCell.put(
                        cell,
                        grouped.get(cell).entrySet().stream()
                                .map(by -> Row.of(cell, by.getKey(), Providers.isBaseline(by.getKey()), by.getValue()))
                                .sorted(ROW_ORDER)
                                .toList()));
    }

    public Map<Cell, List<Row>> rowsByCell() {
        return rowsByCell;
    }

    /** The fastest correct baseline in {@code cell}. */
    public Optional<Row> bestBaseline(Cell cell) {
        return rowsByCell.getOrDefault(cell, List.of()).stream()
                .filter(Row::baseline)
                .filter(Row::ok)
                .max(Comparator.comparingDouble(Row::mibPerSecond));
    }

    public Optional<Row> row(Cell cell, String provider) {
        return rowsByCell.getOrDefault(cell, List.of()).stream()
                .filter(row -> row.provider().equals(provider))
                .findFirst();
    }

    /**
     * {@code provider}'s speed over {@code baseline}'s in {@code cell}, the ratio of their mean times per
     * invocation (so the table's Speed columns give the same figure), with its interval;
     * {@link Estimate#NONE} if either is missing or failed.
     */
    public Estimate speedRatio(Cell cell, String provider, String baseline) {
        return ratio(cell, provider, baseline, Sample::nanos, true);
    }

    /**
     * {@code provider}'s mean of {@code value} over {@code baseline}'s ({@code baseline}'s over
     * {@code provider}'s if {@code inverse}). A cell runs every provider once per round, one after
     * the other in the same fork, so each of {@code provider}'s samples has {@code baseline}'s of the
     * same fork and round beside it: the interval resamples those pairs, by fork
     * ({@link Estimate#pairedRatioOfMeans}). Rows whose samples do not pair up (samples from
     * different runs) are resampled side by side ({@link Estimate#ratioOfMeans}).
     */
    public Estimate ratio(
            Cell cell, String provider, String baseline, ToDoubleFunction<Sample> value, boolean inverse) {
        Optional<Row> first = row(cell, provider).filter(Row::ok);
        Optional<Row> second = row(cell, baseline).filter(Row::ok);
        if (first.isEmpty() || second.isEmpty()) {
            return Estimate.NONE;
        }
        Map<List<Integer>, Sample> byTurn = byTurn(first.get());
        Map<List<Integer>, Sample> besides = byTurn(second.get());
        if (byTurn == null || besides == null || !byTurn.keySet().equals(besides.keySet())) {
            double[] providerValues = first.get().each(value);
            double[] baselineValues = second.get().each(value);
            return inverse
                    ? Estimate.ratioOfMeans(baselineValues, providerValues)
                    : Estimate.ratioOfMeans(providerValues, baselineValues);
        }
        List<List<Integer>> turns = byTurn.keySet().stream()
                .sorted(Comparator.<List<Integer>>comparingInt(turn -> turn.get(0))
                        .thenComparingInt(turn -> turn.get(1)))
                .toList();
        double[] providerValues = turns.stream()
                .mapToDouble(turn -> value.applyAsDouble(byTurn.get(turn)))
                .toArray();
        double[] baselineValues = turns.stream()
                .mapToDouble(turn -> value.applyAsDouble(besides.get(turn)))
                .toArray();
        int[] forks = turns.stream().mapToInt(turn -> turn.get(0)).toArray();
        return inverse
                ? Estimate.pairedRatioOfMeans(baselineValues, providerValues, forks)
                : Estimate.pairedRatioOfMeans(providerValues, baselineValues, forks);
    }

    /** {@code row}'s samples by fork and round; null if two share one (samples of several runs). */
    private static Map<List<Integer>, Sample> byTurn(Row row) {
        Map<List<Integer>, Sample> byTurn = new HashMap<>();
        for (Sample sample : row.samples()) {
            if (byTurn.put(List.of(sample.fork(), sample.round()), sample) != null) {
                return null;
            }
        }
        return byTurn;
    }

    /** Whether a correct row of {@code cell} has fewer than {@link Row#MIN_SAMPLES} samples. */
    public boolean fewSamples(Cell cell) {
        return rowsByCell.getOrDefault(cell, List.of()).stream()
                .anyMatch(row -> row.ok() && row.samples().size() < Row.MIN_SAMPLES);
    }

    private String fewSamplesNote() {
        return rowsByCell.keySet().stream().anyMatch(this::fewSamples)
                ? "* fewer than " + Row.MIN_SAMPLES + " samples for a provider in this cell: its intervals are too "
                        + "narrow to trust\n"
                : "";
    }

    /**
     * The paper's table plus costs, one Markdown table per operation; "x best baseline" is the
     * row's speed over the fastest correct baseline's, with its 95% interval.
     */
    public String markdown() {
        StringBuilder md = new StringBuilder();
        Op current = null;
        for (Map.Entry<Cell, List<Row>> entry : rowsByCell.entrySet()) {
            Cell cell = entry.getKey();
            if (cell.op() != current) {
                current = cell.op();
                md.append("\n#### ")
                        .append(current.name().toLowerCase(Locale.ROOT))
                        .append("\n\n")
                        .append(
                                "| Size | Count | Parallelism | Provider | AVG ms | STDDEV ms | STDERR ms | Speed MiB/s "
                                        + "| x best baseline | CPU s/GiB | Alloc MiB/GiB | Peak heap MiB | Peak direct MiB "
                                        + "| Peak threads |\n")
                        .append("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
            }
            String best = bestBaseline(cell).map(Row::provider).orElse("");
            for (Row row : entry.getValue()) {
                md.append(String.format(
                        Locale.ROOT,
                        "| %s | %d%s | %d | %s |",
                        Cell.formatSize(cell.sizeBytes()),
                        row.samples().size(),
                        row.samples().size() < Row.MIN_SAMPLES ? "*" : "",
                        cell.parallelism(),
                        row.baseline() ? "_" + row.provider() + "_" : row.provider()));
                if (!row.ok()) {
                    md.append(" FAILED: ")
                            .append(row.failure().replace("FAILED: ", "").replace('|', '/'))
                            .append(" | | | | | | | | | |\n");
                    continue;
                }
                md.append(String.format(
                        Locale.ROOT,
                        " %.2f | %.2f | %.2f | %.0f | %s | %.2f | %.0f | %.0f | %.1f | %d |\n",
                        row.avgMs(),
                        row.stddevMs(),
                        row.stderrMs(),
                        row.mibPerSecond(),
                        speedRatio(cell, row.provider(), best).format(),
                        row.cpuSecondsPerGiB(),
                        row.allocatedMiBPerGiB(),
                        row.peakHeapMiB(),
                        row.peakDirectMiB(),
                        row.peakThreads()));
            }
        }
        String note = fewSamplesNote();
        return md + (note.isEmpty() ? "" : "\n" + note);
    }

    /**
     * One line per cell: sluice's speed, the best baseline, and sluice's speed over it and over
     * each peer, each with its 95% interval.
     */
    public String compact() {
        StringBuilder out = new StringBuilder();
        String format = "%-24s %7s  %-16s %7s  %-18s %-18s %-18s %-18s%n";
        out.append(String.format(
                Locale.ROOT,
                format,
                "cell",
                "sluice",
                "best baseline",
                "MiB/s",
                "x base",
                "x rio",
                "x vertx",
                "x spring"));
        for (Cell cell : rowsByCell.keySet()) {
            Optional<Row> sluice = row(cell, "sluice").or(() -> row(cell, "sluice-rw"));
            String name = sluice.map(Row::provider).orElse("sluice");
            Optional<Row> best = bestBaseline(cell);
            List<Object> columns = new ArrayList<>(List.of(
                    cell.label() + (fewSamples(cell) ? " *" : ""),
                    sluice.map(row -> row.ok() ? String.format(Locale.ROOT, "%.0f", row.mibPerSecond()) : "FAILED")
                            .orElse("-"),
                    best.map(Row::provider).orElse("-"),
                    best.map(row -> String.format(Locale.ROOT, "%.0f", row.mibPerSecond()))
                            .orElse("-"),
                    speedRatio(cell, name, best.map(Row::provider).orElse("")).format()));
            PEERS.forEach(peer -> columns.add(speedRatio(cell, name, peer).format()));
            out.append(String.format(Locale.ROOT, format, columns.toArray()));
        }
        out.append(fewSamplesNote());
        List<Row> failed = rowsByCell.values().stream()
                .flatMap(List::stream)
                .filter(row -> !row.ok())
                .toList();
        if (!failed.isEmpty()) {
            out.append("failed (wrong output, error or timeout; reported as failed, not fast):\n");
            failed.forEach(row -> out.append("  ")
                    .append(row.cell().label())
                    .append(' ')
                    .append(row.provider())
                    .append(": ")
                    .append(row.failure())
                    .append('\n'));
        }
        return out.toString();
    }
}
