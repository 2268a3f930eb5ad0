package io.sluice.server.load;

import io.sluice.server.Lane;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Scenario B per lane: fast-GET p99, peak RSS (with the idle RSS as a reference tick) and the peak
 * kernel send queue of the server's sockets, as bars. A lane whose server died says so on its bar.
 */
final class SlowClientsChart {

    static final int WIDTH = 1080;
    static final int HEIGHT = 400;

    private SlowClientsChart() {
    }

    static void draw(List<Row> rows, String title, Path file) throws IOException {
        List<Row> gets = rows.stream().filter(row -> row.scenario().equals("B") && row.step().equals("fast GET"))
                .sorted(java.util.Comparator.comparing(Row::lane)).toList();
        List<String> lanes = gets.stream().map(row -> row.lane().flag()).toList();
        ChartCanvas canvas = new ChartCanvas(WIDTH, HEIGHT, title);
        int third = WIDTH / 3;
        ChartPanel p99 = panel(canvas, 0, third, gets, Row::p99Millis, "fast-GET p99, ms");
        ChartPanel rss = panel(canvas, third, third, gets, Row::peakRssMiB, "peak RSS, MiB (black tick: idle RSS)");
        ChartPanel queue = panel(canvas, 2 * third, third, gets, Row::sendQueuePeakMiB, "peak kernel send queue, MiB");
        for (int i = 0; i < gets.size(); i++) {
            Row row = gets.get(i);
            Color colour = colour(row.lane());
            boolean died = row.note().contains("server died");
            p99.bar(i, row.p99Millis(), 0.6, colour, died ? "died" : f(row.p99Millis()) + (row.timeouts() > 0
                    ? " (" + row.timeouts() + " t/o)" : ""));
            rss.bar(i, row.peakRssMiB(), 0.6, colour, f(row.peakRssMiB()) + (died ? " died" : ""));
            rss.tick(i, row.idleRssMiB(), 0.8);
            queue.bar(i, row.sendQueuePeakMiB(), 0.6, colour, f(row.sendQueuePeakMiB()));
        }
        p99.categories(lanes, "lane");
        rss.categories(lanes, "lane");
        queue.categories(lanes, "lane");
        canvas.save(file);
    }

    private static ChartPanel panel(ChartCanvas canvas, int left, int width, List<Row> rows,
                                    java.util.function.ToDoubleFunction<Row> value, String label) {
        double max = rows.stream().mapToDouble(value).filter(v -> !Double.isNaN(v)).max().orElse(1) * 1.15;
        return new ChartPanel(canvas, left, 36, width, HEIGHT - 36, -0.5, rows.size() - 0.5, max, label);
    }

    private static Color colour(Lane lane) {
        return ChartCanvas.SERIES_COLOURS[lane.ordinal() % ChartCanvas.SERIES_COLOURS.length];
    }

    private static String f(double value) {
        return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, value < 10 ? "%.1f" : "%.0f", value);
    }
}
