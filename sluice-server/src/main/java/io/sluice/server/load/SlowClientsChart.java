package io.sluice.server.load;

import io.sluice.server.Lane;
import io.sluice.testkit.Png;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * Scenario B per lane, three bar panels stacked so that the title fits: fast-GET p99, peak RSS
 * (with the idle RSS as a black marker) and the peak kernel send queue of the server's sockets,
 * each bar labelled with its value. A lane whose server died, or whose GETs timed out, says so
 * under its bars.
 */
final class SlowClientsChart {

    static final int WIDTH = 960;
    static final int HEIGHT = 780;

    private SlowClientsChart() {
    }

    static void draw(List<Row> rows, String title, Path file) throws IOException {
        List<Row> gets = rows.stream().filter(row -> row.scenario().equals("B") && row.step().equals("fast GET"))
                .sorted(Comparator.comparing(Row::lane)).toList();
        List<String> lanes = gets.stream().map(row -> row.lane().flag()
                + (row.note().contains("server died") ? " (died)" : "")
                + (row.timeouts() > 0 ? " (" + row.timeouts() + " t/o)" : "")).toList();
        CategoryChart p99 = panel(title, "fast-GET p99, ms", gets, lanes, Row::p99Millis);
        CategoryChart rss = panel("peak RSS per lane (black: idle RSS)", "peak RSS, MiB", gets, lanes,
                Row::peakRssMiB);
        CategoryChart queue = panel("peak kernel send queue per lane", "peak kernel send queue, MiB", gets, lanes,
                Row::sendQueuePeakMiB);
        if (!gets.isEmpty()) {
            CategorySeries idle = rss.addSeries("idle RSS", lanes, values(gets, Row::idleRssMiB, null));
            idle.setChartCategorySeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Scatter);
            idle.setMarker(SeriesMarkers.DIAMOND).setMarkerColor(Color.BLACK);
        }
        Png.write(List.of(p99, rss, queue), 3, 1, file);
    }

    /** One bar series per lane (its value at its own category only), overlapped: one coloured bar per lane. */
    private static CategoryChart panel(String title, String yLabel, List<Row> gets, List<String> lanes,
                                       ToDoubleFunction<Row> value) {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT / 3).title(title)
                .xAxisTitle("lane").yAxisTitle(yLabel).build();
        chart.getStyler().setOverlapped(true).setLabelsVisible(true).setAvailableSpaceFill(0.4)
                .setYAxisDecimalPattern("#,##0.##").setLegendVisible(false);
        ChartFiles.style(chart.getStyler(), true);
        boolean any = false;
        for (Row row : gets) {
            List<Double> bars = values(gets, value, row.lane());
            any |= bars.stream().anyMatch(bar -> bar != null);
            chart.addSeries("lane " + row.lane().flag(), lanes, bars)
                    .setFillColor(ChartFiles.colour(row.lane().ordinal()));
        }
        if (!any) {
            chart.getStyler().setYAxisMax(1.0); // nothing measured: still an axis
        }
        return chart;
    }

    /** Each row's value (null for NaN), or only {@code lane}'s when it is not null. */
    private static List<Double> values(List<Row> rows, ToDoubleFunction<Row> value, Lane lane) {
        List<Double> values = new ArrayList<>();
        for (Row row : rows) {
            double v = value.applyAsDouble(row);
            values.add(Double.isNaN(v) || (lane != null && row.lane() != lane) ? null : v);
        }
        return values;
    }
}
