package io.sluice.bench.adaptive;

import io.sluice.lab.Png;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;
import java.util.stream.IntStream;

/**
 * Draws time series as a PNG (XChart): one panel per run, stacked, on the same time span. Each
 * panel shows the queued MiB (filled, left axis), the controller's window and the outstanding demand
 * (lines, right axis, items), over a grey band wherever the sink is slower than its fastest rate.
 * The first panel carries the title and the legend; each panel's time axis names its run.
 */
public final class ChartWriter {

    static final int WIDTH = 1000;
    static final int PANEL_HEIGHT = 240;
    private static final int BAND_STEPS = 500;
    private static final Color QUEUE = new Color(70, 130, 200, 150);
    private static final Color WINDOW = new Color(230, 120, 20);
    private static final Color OUTSTANDING = new Color(40, 150, 60);
    private static final Color SLOW_BAND = new Color(235, 235, 235);

    private ChartWriter() {}

    /** Writes {@code runs} (same scenario) to {@code file} under {@code title}. */
    public static void write(Path file, String title, Scenario scenario, List<RunResult> runs) throws IOException {
        List<XYChart> panels = IntStream.range(0, runs.size())
                .mapToObj(index -> panel(index == 0 ? title : "", scenario, runs.get(index)))
                .toList();
        Png.write(panels, panels.size(), 1, file);
    }

    private static XYChart panel(String title, Scenario scenario, RunResult run) {
        boolean unboundedWindow = run.series().stream().anyMatch(sample -> sample.windowItems() == Long.MAX_VALUE);
        XYChart chart = new XYChartBuilder()
                .width(WIDTH)
                .height(PANEL_HEIGHT)
                .title(title)
                .xAxisTitle(String.format(
                        Locale.ROOT,
                        "%s: %.1f MiB/s, peak queued %s, peak outstanding %s, " + "%d request calls%s; time, s",
                        run.strategy(),
                        run.mibPerSecond(),
                        bytes(run.peakQueuedBytes()),
                        items(run.peakOutstandingItems()),
                        run.requestCalls(),
                        unboundedWindow ? "; window ∞" : ""))
                .yAxisTitle("queued MiB")
                .build();
        chart.getStyler()
                .setXAxisMin(0.0)
                .setXAxisMax(run.elapsedNanos() / 1e9)
                .setChartTitleVisible(!title.isEmpty())
                .setLegendVisible(!title.isEmpty())
                .setLegendPosition(Styler.LegendPosition.OutsideS)
                .setLegendLayout(Styler.LegendLayout.Horizontal)
                .setChartBackgroundColor(Color.WHITE)
                .setYAxisGroupPosition(1, Styler.YAxisPosition.Right);
        chart.setYAxisGroupTitle(1, "items");
        double maxQueued = Math.max(
                        1,
                        run.series().stream()
                                .mapToLong(RunResult.Sample::queuedBytes)
                                .max()
                                .orElse(1))
                / RateSchedule.MIB;
        double fastest = scenario.sink().segments().stream()
                .mapToDouble(RateSchedule.Segment::bytesPerSecond)
                .max()
                .orElse(0);
        double[] bandX = new double[BAND_STEPS + 1];
        double[] bandY = new double[BAND_STEPS + 1];
        for (int i = 0; i <= BAND_STEPS; i++) {
            long atNanos = run.elapsedNanos() * i / BAND_STEPS;
            bandX[i] = atNanos / 1e9;
            bandY[i] = scenario.sink().bytesPerSecondAt(atNanos) < fastest ? maxQueued : 0;
        }
        style(chart.addSeries("sink slow", bandX, bandY), XYSeries.XYSeriesRenderStyle.StepArea, SLOW_BAND, 0);
        double[] times = run.series().stream()
                .mapToDouble(sample -> sample.nanos() / 1e9)
                .toArray();
        if (times.length == 0) {
            times = new double[] {0, run.elapsedNanos() / 1e9};
        }
        style(
                chart.addSeries(
                        "queued bytes (left)",
                        times,
                        values(run, RunResult.Sample::queuedBytes, times.length, RateSchedule.MIB)),
                XYSeries.XYSeriesRenderStyle.Area,
                QUEUE,
                0);
        style(
                chart.addSeries(
                        "outstanding, items (right)",
                        times,
                        values(run, RunResult.Sample::outstandingItems, times.length, 1)),
                null,
                OUTSTANDING,
                1);
        if (!unboundedWindow) {
            style(
                    chart.addSeries(
                            "window, items (right)",
                            times,
                            values(run, RunResult.Sample::windowItems, times.length, 1)),
                    null,
                    WINDOW,
                    1);
        }
        return chart;
    }

    private static void style(XYSeries series, XYSeries.XYSeriesRenderStyle render, Color colour, int axis) {
        series.setMarker(SeriesMarkers.NONE)
                .setLineColor(colour)
                .setFillColor(colour)
                .setYAxisGroup(axis);
        if (render != null) {
            series.setXYSeriesRenderStyle(render);
        }
    }

    /** The samples' values divided by {@code unit}; unbounded ({@code Long.MAX_VALUE}) leaves a gap. */
    private static double[] values(RunResult run, ToLongFunction<RunResult.Sample> value, int length, double unit) {
        double[] values = new double[length];
        for (int i = 0; i < run.series().size(); i++) {
            long raw = value.applyAsLong(run.series().get(i));
            values[i] = raw == Long.MAX_VALUE ? Double.NaN : raw / unit;
        }
        return values;
    }

    static String bytes(long bytes) {
        return bytes >= 1024L * 1024
                ? String.format(Locale.ROOT, "%.1f MiB", bytes / RateSchedule.MIB)
                : bytes >= 1024 ? String.format(Locale.ROOT, "%.0f KiB", bytes / 1024.0) : bytes + " B";
    }

    static String items(long items) {
        return items == Long.MAX_VALUE ? "∞" : Long.toString(items);
    }
}
