package io.sluice.bench;

import io.sluice.bench.providers.Providers;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/** Draws the report's charts: speed, CPU per GiB and allocation per GiB for each operation. */
public final class Charts {

    /** One chart per operation: the file name's start, the title after the operation, the axis. */
    private record Metric(String file, ToDoubleFunction<Row> value, String title, String axis) {
    }

    private static final List<Metric> METRICS = List.of(
            new Metric("speed", Row::mibPerSecond, "speed (MiB/s, higher is better)", "MiB/s"),
            new Metric("cpu", Row::cpuSecondsPerGiB, "CPU seconds per GiB (lower is better)", "CPU s/GiB"),
            new Metric("alloc", Row::allocatedMiBPerGiB, "heap allocated per GiB moved (lower is better)", "MiB/GiB"));

    private Charts() {
    }

    /**
     * Writes {@code <prefix>speed-<op>.png}, {@code <prefix>cpu-<op>.png} and
     * {@code <prefix>alloc-<op>.png}; returns the files.
     */
    public static List<Path> draw(Report report, Path dir, String prefix, String subtitle) throws IOException {
        List<Path> files = new ArrayList<>();
        for (Op op : Op.values()) {
            List<Cell> cells = report.rowsByCell().keySet().stream().filter(cell -> cell.op() == op).toList();
            if (cells.isEmpty()) {
                continue;
            }
            List<String> series = cells.stream().flatMap(cell -> report.rowsByCell().get(cell).stream())
                    .map(Row::provider).distinct().sorted(Comparator.comparingInt(Providers::legendOrder)).toList();
            List<String> categories = cells.stream()
                    .map(cell -> Cell.formatSize(cell.sizeBytes()) + "\nx" + cell.parallelism()).toList();
            String name = op.name().toLowerCase(Locale.ROOT).replace('_', '-');
            for (Metric metric : METRICS) {
                Path file = dir.resolve(prefix + metric.file() + "-" + name + ".png");
                new BarChart(name + ": " + metric.title() + subtitle, metric.axis(), categories, series,
                        values(report, cells, series, metric.value()), true).writePng(file);
                files.add(file);
            }
        }
        return files;
    }

    /** {@code value} of each series' row in each cell; NaN where it is missing or failed. */
    private static double[][] values(Report report, List<Cell> cells, List<String> series,
                                     ToDoubleFunction<Row> value) {
        double[][] values = new double[series.size()][cells.size()];
        for (int s = 0; s < series.size(); s++) {
            for (int c = 0; c < cells.size(); c++) {
                values[s][c] = report.row(cells.get(c), series.get(s)).filter(Row::ok).map(value::applyAsDouble)
                        .orElse(Double.NaN);
            }
        }
        return values;
    }
}
