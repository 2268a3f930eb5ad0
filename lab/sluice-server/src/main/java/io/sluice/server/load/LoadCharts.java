package io.sluice.server.load;

import io.sluice.lab.Png;
import io.sluice.server.Lane;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The charts of one harness run (XChart), each only when its scenario ran, and the style every load chart
 * shares: {@code server-a1.png} and {@code server-a2.png} (req/s and p99 per lane against the connection steps;
 * A2 adds lane A's plateau), {@code server-b.png} (B's fast-GET p99, peak and idle RSS, peak send queue).
 */
final class LoadCharts {

    static final int WIDTH = 960;
    static final int CONNECTIONS_HEIGHT = 640;
    static final int SLOW_CLIENTS_HEIGHT = 780;
    /** One colour per lane (A, B, C, C-unbounded), in this order, and per series elsewhere. */
    static final Color[] SERIES_COLOURS = {
        new Color(0xD6, 0x27, 0x28),
        new Color(0x1F, 0x77, 0xB4),
        new Color(0x2C, 0xA0, 0x2C),
        new Color(0x7F, 0x7F, 0x7F)
    };

    static final Color INK = new Color(0x33, 0x33, 0x33);

    private LoadCharts() {}

    /** Draws what the rows, measured on JDK {@code java}, allow; returns the files written. */
    static List<Path> write(Scale scale, String java, List<Row> rows, Path directory, PrintStream out)
            throws IOException {
        List<Path> written = new ArrayList<>();
        String suffix = " (" + scale.name() + " scale, java " + java + ")";
        if (has(rows, "A1")) {
            written.add(connections(
                    rows,
                    "A1",
                    "A1: fast 16 KiB GETs, closed loop" + suffix,
                    Double.NaN,
                    "",
                    directory.resolve("server-a1.png")));
        }
        if (has(rows, "A2")) {
            double plateau = scale.platformThreads() / (Scenarios.DELAY_MILLIS / 1000.0);
            written.add(connections(
                    rows,
                    "A2",
                    "A2: 16 KiB GETs behind 100 ms of slow storage" + suffix,
                    plateau,
                    String.format(
                            Locale.ROOT,
                            "lane A plateau: %d threads / 0.1 s = %,.0f req/s",
                            scale.platformThreads(),
                            plateau),
                    directory.resolve("server-a2.png")));
        }
        if (has(rows, "B")) {
            written.add(slowClients(
                    rows,
                    "B: slow readers and writers plus steady fast GETs and PUTs" + suffix,
                    directory.resolve("server-b.png")));
        }
        written.forEach(file -> out.println("chart: " + file));
        return written;
    }

    private static boolean has(List<Row> rows, String scenario) {
        return rows.stream().anyMatch(row -> row.scenario().equals(scenario));
    }

    /** A1 or A2; a NaN {@code plateau} draws no plateau line. */
    private static Path connections(
            List<Row> rows, String scenario, String title, double plateau, String plateauLabel, Path file)
            throws IOException {
        List<Row> mine =
                rows.stream().filter(row -> row.scenario().equals(scenario)).toList();
        List<String> steps = mine.stream().map(Row::step).distinct().toList();
        CategoryChart rate = stepPanel(title, "requests per second");
        CategoryChart p99 = stepPanel("p99 latency per lane", "p99 latency, ms");
        for (Lane lane : mine.stream().map(Row::lane).distinct().sorted().toList()) {
            stepLine(rate, mine, steps, lane, Row::requestsPerSecond);
            stepLine(p99, mine, steps, lane, Row::p99Millis);
        }
        if (!Double.isNaN(plateau)) {
            rate.addSeries(plateauLabel, steps, Collections.nCopies(steps.size(), plateau))
                    .setMarker(SeriesMarkers.NONE)
                    .setLineColor(INK)
                    .setLineStyle(SeriesLines.DASH_DASH);
        }
        keepAxis(rate);
        keepAxis(p99);
        Png.write(List.of(rate, p99), 2, 1, file);
        return file;
    }

    private static CategoryChart stepPanel(String title, String yLabel) {
        CategoryChart chart = new CategoryChartBuilder()
                .width(WIDTH)
                .height(CONNECTIONS_HEIGHT / 2)
                .title(title)
                .xAxisTitle("connections")
                .yAxisTitle(yLabel)
                .build();
        chart.getStyler()
                .setDefaultSeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Line)
                .setOverlapped(true)
                .setYAxisMin(0.0)
                .setYAxisDecimalPattern("#,##0.##")
                .setLegendPosition(Styler.LegendPosition.OutsideE);
        style(chart.getStyler(), true);
        return chart;
    }

    /** Lane {@code lane}'s value at each step, no point where it has none or it is NaN. */
    private static void stepLine(
            CategoryChart chart, List<Row> rows, List<String> steps, Lane lane, ToDoubleFunction<Row> value) {
        List<Double> values = steps.stream()
                .map(step -> rows.stream()
                        .filter(row -> row.lane() == lane && row.step().equals(step))
                        .mapToDouble(value)
                        .filter(figure -> !Double.isNaN(figure))
                        .boxed()
                        .findFirst()
                        .orElse(null))
                .toList();
        chart.addSeries("lane " + lane.flag(), steps, values)
                .setMarker(SeriesMarkers.CIRCLE)
                .setMarkerColor(colour(lane.ordinal()))
                .setLineColor(colour(lane.ordinal()));
    }

    private static Path slowClients(List<Row> rows, String title, Path file) throws IOException {
        List<Row> gets = rows.stream()
                .filter(row -> row.scenario().equals("B") && row.step().equals("fast GET"))
                .sorted(Comparator.comparing(Row::lane))
                .toList();
        List<String> lanes = gets.stream()
                .map(row -> row.lane().flag()
                        + (row.note().contains("server died") ? " (died)" : "")
                        + (row.timeouts() > 0 ? " (" + row.timeouts() + " t/o)" : ""))
                .toList();
        CategoryChart p99 = barPanel(title, "fast-GET p99, ms", gets, lanes, Row::p99Millis);
        CategoryChart rss =
                barPanel("peak RSS per lane (black: idle RSS)", "peak RSS, MiB", gets, lanes, Row::peakRssMiB);
        CategoryChart queue = barPanel(
                "peak kernel send queue per lane", "peak kernel send queue, MiB", gets, lanes, Row::sendQueuePeakMiB);
        if (!gets.isEmpty()) {
            CategorySeries idle = rss.addSeries("idle RSS", lanes, values(gets, Row::idleRssMiB, null));
            idle.setChartCategorySeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Scatter);
            idle.setMarker(SeriesMarkers.DIAMOND).setMarkerColor(Color.BLACK);
        }
        Png.write(List.of(p99, rss, queue), 3, 1, file);
        return file;
    }

    /** One bar series per lane (its value at its own category only), overlapped: one coloured bar per lane. */
    private static CategoryChart barPanel(
            String title, String yLabel, List<Row> gets, List<String> lanes, ToDoubleFunction<Row> value) {
        CategoryChart chart = new CategoryChartBuilder()
                .width(WIDTH)
                .height(SLOW_CLIENTS_HEIGHT / 3)
                .title(title)
                .xAxisTitle("lane")
                .yAxisTitle(yLabel)
                .build();
        chart.getStyler()
                .setOverlapped(true)
                .setLabelsVisible(true)
                .setAvailableSpaceFill(0.4)
                .setYAxisDecimalPattern("#,##0.##")
                .setLegendVisible(false);
        style(chart.getStyler(), true);
        for (Row row : gets) {
            chart.addSeries("lane " + row.lane().flag(), lanes, values(gets, value, row.lane()))
                    .setFillColor(colour(row.lane().ordinal()));
        }
        keepAxis(chart);
        return chart;
    }

    /** A panel in which nothing was measured (no series has a value) still gets an axis. */
    private static void keepAxis(CategoryChart chart) {
        if (chart.getSeriesMap().values().stream().allMatch(series -> series.getYMax() < 0)) {
            chart.getStyler().setYAxisMax(1.0);
        }
    }

    /** Each row's value (null for NaN), or only {@code lane}'s when it is not null. */
    private static List<Double> values(List<Row> rows, ToDoubleFunction<Row> value, Lane lane) {
        return rows.stream()
                .map(row -> lane == null || row.lane() == lane ? value.applyAsDouble(row) : Double.NaN)
                .map(figure -> figure.isNaN() ? null : figure)
                .toList();
    }

    static Color colour(int index) {
        return SERIES_COLOURS[index % SERIES_COLOURS.length];
    }

    /** White background, a 12-point bold title (long titles fit a panel), shown or not. */
    static void style(Styler styler, boolean titled) {
        styler.setChartBackgroundColor(Color.WHITE)
                .setChartTitleVisible(titled)
                .setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 12))
                .setSeriesColors(SERIES_COLOURS);
    }
}
