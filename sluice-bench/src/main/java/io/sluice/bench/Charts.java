package io.sluice.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/** Draws the report's charts: speed, CPU per GiB and allocation per GiB for each operation. */
public final class Charts {

    private Charts() {
    }

    /**
     * Writes {@code <prefix>speed-<op>.png}, {@code <prefix>cpu-<op>.png} and
     * {@code <prefix>alloc-<op>.png}; returns the files.
     */
    public static List<Path> draw(Report report, Path dir, String prefix, String subtitle) throws IOException {
        List<Path> files = new ArrayList<>();
        for (Op op : Op.values()) {
            List<Cell> cells = new ArrayList<>();
            Set<String> providers = new LinkedHashSet<>();
            report.rowsByCell().forEach((cell, rows) -> {
                if (cell.op() == op) {
                    cells.add(cell);
                    rows.forEach(row -> providers.add(row.provider()));
                }
            });
            if (cells.isEmpty()) {
                continue;
            }
            List<String> series = new ArrayList<>(providers);
            series.sort((a, b) -> Integer.compare(order(a), order(b)));
            List<String> categories = new ArrayList<>();
            for (Cell cell : cells) {
                categories.add(Cell.formatSize(cell.sizeBytes()) + "\nx" + cell.parallelism());
            }
            String name = op.name().toLowerCase(Locale.ROOT).replace('_', '-');
            files.add(chart(report, cells, series, categories, Row::mibPerSecond,
                    name + ": speed (MiB/s, higher is better)" + subtitle, "MiB/s", true,
                    dir.resolve(prefix + "speed-" + name + ".png")));
            files.add(chart(report, cells, series, categories, Row::cpuSecondsPerGiB,
                    name + ": CPU seconds per GiB (lower is better)" + subtitle, "CPU s/GiB", true,
                    dir.resolve(prefix + "cpu-" + name + ".png")));
            files.add(chart(report, cells, series, categories, Row::allocatedMiBPerGiB,
                    name + ": heap allocated per GiB moved (lower is better)" + subtitle, "MiB/GiB", true,
                    dir.resolve(prefix + "alloc-" + name + ".png")));
        }
        return files;
    }

    /** sluice first, then peers, then baselines: the legend reads in the same order every time. */
    private static int order(String provider) {
        List<String> known = List.of("sluice", "sluice-rw", "rio", "vertx", "vertx-pipe", "spring", "loop",
                "loop-gather", "loop-fresh-64k", "files-copy", "vt-loop", "vt-loop-gather");
        int index = known.indexOf(provider);
        return index < 0 ? known.size() : index;
    }

    private static Path chart(Report report, List<Cell> cells, List<String> series, List<String> categories,
                              ToDoubleFunction<Row> metric, String title, String axis, boolean log, Path file)
            throws IOException {
        double[][] values = new double[series.size()][cells.size()];
        for (int s = 0; s < series.size(); s++) {
            for (int c = 0; c < cells.size(); c++) {
                Optional<Row> row = report.row(cells.get(c), series.get(s));
                values[s][c] = row.filter(Row::ok).map(metric::applyAsDouble).orElse(Double.NaN);
            }
        }
        new BarChart(title, axis, categories, series, values, log).writePng(file);
        return file;
    }
}
