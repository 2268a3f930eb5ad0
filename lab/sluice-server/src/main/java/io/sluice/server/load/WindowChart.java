package io.sluice.server.load;

import io.sluice.lab.Csv;
import io.sluice.lab.Png;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * Scenario C's demand window over time from its series CSV ({@value #HEADER}): the sink rate, the window in
 * items and the queued MiB, three stacked panels on one time span, for one strategy (default adaptive).
 * <pre>java -cp sluice-server.jar io.sluice.server.load.WindowChart series.csv out.png [strategy]</pre>
 */
public final class WindowChart {

    static final String HEADER = WindowTrace.CSV_HEADER;
    static final int WIDTH = LoadCharts.WIDTH;
    static final int HEIGHT = 720;

    record Sample(String strategy, double millis, double sinkMiBPerSecond, double windowItems, double queuedBytes) {}

    private WindowChart() {}

    public static void main(String[] args) throws IOException {
        if (args.length < 2 || args.length > 3) {
            System.err.println("usage: WindowChart series.csv out.png [strategy, default adaptive]");
            System.exit(2);
            return;
        }
        String strategy = args.length == 3 ? args[2] : "adaptive";
        try {
            int drawn = draw(read(Path.of(args[0])), strategy, Path.of(args[1]));
            System.out.println("wrote " + args[1] + " (" + drawn + " samples of " + strategy + ")");
        } catch (IllegalArgumentException | IOException e) {
            System.err.println("WindowChart: " + e.getMessage());
            System.exit(1);
        }
    }

    static List<Sample> read(Path csv) throws IOException {
        return Csv.read(csv, List.of(HEADER), (header, fields) -> {
            if (fields.size() != 5) {
                throw new IllegalArgumentException("expected 5 fields, got " + fields);
            }
            return new Sample(
                    fields.get(0),
                    Double.parseDouble(fields.get(1)),
                    Double.parseDouble(fields.get(2)),
                    Double.parseDouble(fields.get(3)),
                    Double.parseDouble(fields.get(4)));
        });
    }

    /** Draws the samples of {@code strategy}; returns how many there were. */
    static int draw(List<Sample> all, String strategy, Path png) throws IOException {
        List<Sample> samples = all.stream()
                .filter(sample -> sample.strategy().equals(strategy))
                .toList();
        if (samples.isEmpty()) {
            throw new IllegalArgumentException("no samples for strategy '" + strategy + "' (strategies: "
                    + all.stream().map(Sample::strategy).distinct().toList() + ")");
        }
        double[] seconds =
                samples.stream().mapToDouble(sample -> sample.millis() / 1000).toArray();
        double start = Math.floor(seconds[0]);
        XYChart rate = panel(
                "Scenario C: demand window of '" + strategy + "' against a sink that switches rate",
                "sink MiB/s",
                "",
                start,
                seconds,
                samples,
                Sample::sinkMiBPerSecond,
                LoadCharts.INK);
        rate.getSeriesMap().values().forEach(line -> line.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Step));
        XYChart items =
                panel("", "window, items", "", start, seconds, samples, Sample::windowItems, LoadCharts.colour(1));
        XYChart bytes = panel(
                "",
                "queued MiB",
                "time, s",
                start,
                seconds,
                samples,
                sample -> Scenarios.mib((long) sample.queuedBytes()),
                LoadCharts.colour(2));
        Png.write(List.of(rate, items, bytes), 3, 1, png);
        return samples.size();
    }

    /** One of the stacked panels: the top one titled, the bottom one with the time axis. */
    private static XYChart panel(
            String title,
            String yLabel,
            String xLabel,
            double start,
            double[] seconds,
            List<Sample> samples,
            ToDoubleFunction<Sample> value,
            Color colour) {
        XYChart chart = new XYChartBuilder()
                .width(WIDTH)
                .height(HEIGHT / 3)
                .title(title)
                .xAxisTitle(xLabel)
                .yAxisTitle(yLabel)
                .build();
        chart.getStyler()
                .setXAxisMin(start)
                .setYAxisMin(0.0)
                .setYAxisDecimalPattern("#,##0.##")
                .setXAxisTitleVisible(!xLabel.isEmpty())
                .setLegendVisible(false);
        LoadCharts.style(chart.getStyler(), !title.isEmpty());
        chart.addSeries(yLabel, seconds, samples.stream().mapToDouble(value).toArray())
                .setMarker(SeriesMarkers.NONE)
                .setLineColor(colour);
        return chart;
    }
}
