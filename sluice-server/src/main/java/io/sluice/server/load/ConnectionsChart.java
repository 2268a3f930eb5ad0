package io.sluice.server.load;

import io.sluice.server.Lane;
import io.sluice.testkit.Png;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalDouble;
import java.util.function.ToDoubleFunction;

/**
 * Scenarios A1 and A2: req/s (top panel, titled) and p99 (bottom panel) per lane against the
 * connection steps, lines with a dot per step, with an optional dashed plateau line in the req/s
 * panel (A2: lane A's threads / 0.1 s). The panels are stacked so that the title fits.
 */
final class ConnectionsChart {

    static final int WIDTH = 960;
    static final int HEIGHT = 640;

    private ConnectionsChart() {
    }

    static void draw(List<Row> rows, String scenario, String title, OptionalDouble plateau, String plateauLabel,
                     Path file) throws IOException {
        List<Row> mine = rows.stream().filter(row -> row.scenario().equals(scenario)).toList();
        List<String> steps = mine.stream().map(Row::step).distinct().toList();
        List<Lane> lanes = mine.stream().map(Row::lane).distinct().sorted().toList();
        CategoryChart rate = panel(title, "requests per second");
        CategoryChart p99 = panel("p99 latency per lane", "p99 latency, ms");
        for (Lane lane : lanes) {
            line(rate, mine, steps, lane, Row::requestsPerSecond);
            line(p99, mine, steps, lane, Row::p99Millis);
        }
        if (plateau.isPresent()) {
            CategorySeries reference = rate.addSeries(plateauLabel, steps,
                    Collections.nCopies(steps.size(), plateau.getAsDouble()));
            reference.setMarker(SeriesMarkers.NONE).setLineColor(ChartFiles.INK).setLineStyle(SeriesLines.DASH_DASH);
        }
        for (CategoryChart panel : List.of(rate, p99)) {
            if (panel.getSeriesMap().values().stream().allMatch(series -> series.getYMax() < 0)) {
                panel.getStyler().setYAxisMax(1.0); // nothing measured: still an axis
            }
        }
        Png.write(List.of(rate, p99), 2, 1, file);
    }

    private static CategoryChart panel(String title, String yLabel) {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT / 2).title(title)
                .xAxisTitle("connections").yAxisTitle(yLabel).build();
        chart.getStyler().setDefaultSeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Line)
                .setOverlapped(true).setYAxisMin(0.0).setYAxisDecimalPattern("#,##0.##")
                .setLegendPosition(Styler.LegendPosition.OutsideE);
        ChartFiles.style(chart.getStyler(), true);
        return chart;
    }

    /** Lane {@code lane}'s value at each step, no point where it has none (or it is NaN). */
    private static void line(CategoryChart chart, List<Row> rows, List<String> steps, Lane lane,
                             ToDoubleFunction<Row> value) {
        List<Double> values = new ArrayList<>();
        for (String step : steps) {
            values.add(rows.stream().filter(row -> row.lane() == lane && row.step().equals(step))
                    .mapToDouble(value).filter(v -> !Double.isNaN(v)).boxed().findFirst().orElse(null));
        }
        chart.addSeries("lane " + lane.flag(), steps, values).setMarker(SeriesMarkers.CIRCLE)
                .setMarkerColor(ChartFiles.colour(lane.ordinal())).setLineColor(ChartFiles.colour(lane.ordinal()));
    }
}
