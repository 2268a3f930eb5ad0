package io.sluice.bench;

import io.sluice.bench.providers.Providers;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Turns samples into rows and tables: the full Markdown table and the compact console table. */
public final class Report {

    private static final List<String> PEERS = List.of("rio", "vertx", "spring");

    private final Map<Cell, List<Row>> rowsByCell = new LinkedHashMap<>();

    public Report(List<Sample> samples) {
        Map<Cell, Map<String, List<Sample>>> grouped = new LinkedHashMap<>();
        for (Sample sample : samples) {
            grouped.computeIfAbsent(sample.cell(), c -> new LinkedHashMap<>())
                    .computeIfAbsent(sample.provider(), p -> new ArrayList<>()).add(sample);
        }
        List<Cell> cells = new ArrayList<>(grouped.keySet());
        cells.sort(Comparator.comparing(Cell::op).thenComparingLong(Cell::sizeBytes)
                .thenComparingInt(Cell::parallelism));
        for (Cell cell : cells) {
            List<Row> rows = new ArrayList<>();
            grouped.get(cell).forEach((provider, list) ->
                    rows.add(Row.of(cell, provider, Providers.isBaseline(provider), list)));
            rows.sort(Comparator.comparing((Row row) -> !row.ok())
                    .thenComparing(Comparator.comparingDouble(Row::mibPerSecond).reversed()));
            rowsByCell.put(cell, rows);
        }
    }

    public Map<Cell, List<Row>> rowsByCell() {
        return rowsByCell;
    }

    /** The fastest correct baseline in {@code cell}. */
    public Optional<Row> bestBaseline(Cell cell) {
        return rowsByCell.getOrDefault(cell, List.of()).stream().filter(Row::baseline).filter(Row::ok)
                .max(Comparator.comparingDouble(Row::mibPerSecond));
    }

    public Optional<Row> row(Cell cell, String provider) {
        return rowsByCell.getOrDefault(cell, List.of()).stream()
                .filter(row -> row.provider().equals(provider)).findFirst();
    }

    /** {@code a}'s speed over {@code b}'s in {@code cell}, or NaN if either is missing or failed. */
    public double speedRatio(Cell cell, String a, String b) {
        Optional<Row> first = row(cell, a);
        Optional<Row> second = row(cell, b);
        if (first.isEmpty() || second.isEmpty() || !first.get().ok() || !second.get().ok()) {
            return Double.NaN;
        }
        return first.get().mibPerSecond() / second.get().mibPerSecond();
    }

    /** The paper's table plus costs, one Markdown table per operation. */
    public String markdown() {
        StringBuilder md = new StringBuilder();
        Op current = null;
        for (Map.Entry<Cell, List<Row>> entry : rowsByCell.entrySet()) {
            Cell cell = entry.getKey();
            if (cell.op() != current) {
                current = cell.op();
                md.append("\n#### ").append(current.name().toLowerCase(Locale.ROOT)).append("\n\n")
                        .append("| Size | Count | Parallelism | Provider | AVG ms | STDDEV ms | STDERR ms | Speed MiB/s "
                                + "| x best baseline | CPU s/GiB | Alloc MiB/GiB | Peak heap MiB | Peak direct MiB "
                                + "| Peak threads |\n")
                        .append("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
            }
            double best = bestBaseline(cell).map(Row::mibPerSecond).orElse(Double.NaN);
            for (Row row : entry.getValue()) {
                md.append(String.format(Locale.ROOT, "| %s | %d | %d | %s |", Cell.formatSize(cell.sizeBytes()),
                        row.samples(), cell.parallelism(), row.baseline() ? "_" + row.provider() + "_" : row.provider()));
                if (!row.ok()) {
                    md.append(" FAILED: ").append(row.failure().replace("FAILED: ", "").replace('|', '/'))
                            .append(" | | | | | | | | | |\n");
                    continue;
                }
                md.append(String.format(Locale.ROOT,
                        " %.2f | %.2f | %.2f | %.0f | %.2f | %.2f | %.0f | %.0f | %.1f | %d |\n",
                        row.avgMs(), row.stddevMs(), row.stderrMs(), row.mibPerSecond(), row.mibPerSecond() / best,
                        row.cpuSecondsPerGiB(), row.allocatedMiBPerGiB(), row.peakHeapMiB(), row.peakDirectMiB(),
                        row.peakThreads()));
            }
        }
        return md.toString();
    }

    /** One line per cell: sluice's speed, the best baseline, and sluice's ratio to it and to each peer. */
    public String compact() {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%-22s %10s  %-20s %8s  %7s %7s %7s %7s%n", "cell", "sluice",
                "best baseline", "MiB/s", "x base", "x rio", "x vertx", "x spring"));
        for (Cell cell : rowsByCell.keySet()) {
            Optional<Row> sluice = row(cell, "sluice").or(() -> row(cell, "sluice-rw"));
            String name = sluice.map(Row::provider).orElse("sluice");
            Optional<Row> best = bestBaseline(cell);
            out.append(String.format(Locale.ROOT, "%-22s %10s  %-20s %8s  %7s %7s %7s %7s%n", cell.label(),
                    sluice.map(r -> r.ok() ? String.format(Locale.ROOT, "%.0f", r.mibPerSecond()) : "FAILED")
                            .orElse("-"),
                    best.map(Row::provider).orElse("-"),
                    best.map(r -> String.format(Locale.ROOT, "%.0f", r.mibPerSecond())).orElse("-"),
                    ratio(sluice.filter(Row::ok).map(Row::mibPerSecond).orElse(Double.NaN)
                            / best.map(Row::mibPerSecond).orElse(Double.NaN)),
                    ratio(speedRatio(cell, name, PEERS.get(0))),
                    ratio(speedRatio(cell, name, PEERS.get(1))),
                    ratio(speedRatio(cell, name, PEERS.get(2)))));
        }
        List<String> failures = new ArrayList<>();
        rowsByCell.forEach((cell, rows) -> rows.stream().filter(row -> !row.ok()).forEach(row ->
                failures.add(cell.label() + " " + row.provider() + ": " + row.failure())));
        if (!failures.isEmpty()) {
            out.append("failed (wrong output, error or timeout; reported as failed, not fast):\n");
            failures.forEach(line -> out.append("  ").append(line).append('\n'));
        }
        return out.toString();
    }

    static String ratio(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.2f", value);
    }
}
