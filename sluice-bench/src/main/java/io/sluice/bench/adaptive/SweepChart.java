package io.sluice.bench.adaptive;

import io.sluice.testkit.Png;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;

/**
 * The sweep as a scatter plot (XChart): each setting's mean peak queued bytes (fraction of the cap,
 * x) against its worst-case throughput relative to the best setting (y, from 0.4: lower values sit
 * on the axis); blue when its request calls stay within 1/8 of oneByOne's, grey otherwise; the
 * recommended setting a red square, the defaults at the time of the sweep an orange diamond; a
 * dashed line at 95%.
 */
final class SweepChart {

    static final int WIDTH = 900;
    static final int HEIGHT = 560;
    private static final double Y_MIN = 0.4;

    private SweepChart() {
    }

    static void write(Path file, SweepMain.Sweep sweep, SweepMain.Setting recommended) throws IOException {
        double xMax = Math.max(0.1, sweep.scored().stream().mapToDouble(sweep::meanPeakFraction).max().orElse(1));
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                .title("Sweep of the adaptive constants (model, " + sweep.scored().size() + " settings x "
                        + sweep.scenarios().size() + " scenarios)")
                .xAxisTitle("mean peak queued bytes / byte cap").yAxisTitle("worst-case throughput / best setting")
                .build();
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter)
                .setXAxisMin(0.0).setXAxisMax(xMax).setYAxisMin(Y_MIN).setYAxisMax(1.0)
                .setLegendPosition(Styler.LegendPosition.InsideSE).setChartBackgroundColor(Color.WHITE)
                .setMarkerSize(8);
        dots(chart, sweep, "request calls <= 1/8 of oneByOne's in every scenario", new Color(60, 110, 200, 140),
                SeriesMarkers.CIRCLE, s -> sweep.maxCallsRatio(s) <= SweepMain.CALLS_LIMIT);
        dots(chart, sweep, "more request calls", new Color(150, 150, 150, 90),
                SeriesMarkers.CIRCLE, s -> sweep.maxCallsRatio(s) > SweepMain.CALLS_LIMIT);
        dots(chart, sweep, "defaults before the sweep", new Color(240, 140, 0),
                SeriesMarkers.DIAMOND, s -> s.setting().equals(SweepMain.PRE_SWEEP));
        dots(chart, sweep, "shipped defaults", new Color(220, 30, 30), SeriesMarkers.SQUARE,
                s -> s.setting().equals(recommended));
        XYSeries target = chart.addSeries("95% of the best", new double[] {0, xMax}, new double[] {0.95, 0.95});
        target.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line).setMarker(SeriesMarkers.NONE)
                .setLineColor(new Color(200, 60, 60)).setLineStyle(SeriesLines.DASH_DASH);
        Png.write(List.of(chart), 1, 1, file);
    }

    /** A scatter series of the settings that {@code which} accepts (none: no series). */
    private static void dots(XYChart chart, SweepMain.Sweep sweep, String name, Color colour, Marker marker,
                             Predicate<SweepMain.Scored> which) {
        List<SweepMain.Scored> chosen = sweep.scored().stream().filter(which).toList();
        if (chosen.isEmpty()) {
            return;
        }
        double[] xs = chosen.stream().mapToDouble(sweep::meanPeakFraction).toArray();
        double[] ys = chosen.stream().mapToDouble(s -> Math.max(Y_MIN, sweep.minThroughputRatio(s))).toArray();
        XYSeries series = chart.addSeries(name, xs, ys);
        series.setMarker(marker).setMarkerColor(colour);
    }
}
