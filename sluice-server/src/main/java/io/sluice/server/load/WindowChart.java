package io.sluice.server.load;

import io.sluice.testkit.Csv;
import io.sluice.testkit.Png;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * Scenario C's demand window over time, from the series CSV the demand scenario writes (header
 * exactly {@value #HEADER}, one row per sample): three stacked panels (XChart) on one time span, the
 * sink rate as a step line, the writer's window in items, and the queued MiB, for one strategy
 * ({@code adaptive} unless a third argument names another).
 * <pre>java -cp sluice-server.jar io.sluice.server.load.WindowChart series.csv out.png [strategy]</pre>
 */
public final class WindowChart {

    static final String HEADER = WindowTrace.CSV_HEADER;
    static final int WIDTH = LoadCharts.WIDTH;
    static final int HEIGHT = 720;
    /** A row: the strategy, quoted as RFC 4180 says when it holds a comma, then four numbers. */

    /** One sample line of the CSV. */
    record Sample(String strategy, double millis, double sinkMiBPerSecond, double windowItems, double queuedBytes) {
    }

    private WindowChart() {
    }

    /**
     * Draws the chart.
     *
     * @param args the CSV, the PNG to write, and optionally the strategy (default adaptive)
     */
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
        } catch (IllegalArgumentException e) {
            System.err.println("WindowChart: " + e.getMessage());
            System.exit(1);
        }
    }

    /** Parses the CSV; the header must be exactly {@value #HEADER}. */
    static List<Sample> read(Path csv) throws IOException {
        List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !lines.get(0).trim().equals(HEADER)) {
            throw new IllegalArgumentException(csv + ": the first line must be '" + HEADER + "', was '"
                    + (lines.isEmpty() ? "" : lines.get(0)) + "'");
        }
        List<Sample> samples = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i).trim();
            if (line.isEmpty()) {
                continue;
            }
            String[] fields = fields(line);
            if (fields == null) {
                throw new IllegalArgumentException(csv + " line " + (i + 1) + ": expected 5 fields, got '" + line + "'");
            }
            try {
                samples.add(new Sample(fields[0], Double.parseDouble(fields[1]), Double.parseDouble(fields[2]),
                        Double.parseDouble(fields[3]), Double.parseDouble(fields[4])));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(csv + " line " + (i + 1) + ": not a number in '" + line + "'");
            }
        }
        return samples;
    }

    /**
     * The five fields of a row: the strategy (such as {@code "fixed(16,4)"} unquoted, {@code ""}
     * read as a quote), then the four numbers as text; null if malformed.
     */
    static String[] fields(String line) {
        try {
            List<String> fields = Csv.fields(line);
            return fields.size() == 5 ? fields.toArray(String[]::new) : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** Draws the samples of {@code strategy}; returns how many there were. */
    static int draw(List<Sample> all, String strategy, Path png) throws IOException {
        List<Sample> samples = all.stream().filter(sample -> sample.strategy().equals(strategy)).toList();
        if (samples.isEmpty()) {
            throw new IllegalArgumentException("no samples for strategy '" + strategy + "' (strategies: "
                    + all.stream().map(Sample::strategy).distinct().toList() + ")");
        }
        double[] seconds = samples.stream().mapToDouble(sample -> sample.millis() / 1000).toArray();
        double start = Math.floor(seconds[0]);
        XYChart rate = panel("Scenario C: demand window of '" + strategy + "' against a sink that switches rate",
                "sink MiB/s", "", start, seconds, samples, Sample::sinkMiBPerSecond, LoadCharts.INK);
        rate.getSeriesMap().values().forEach(line -> line.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Step));
        XYChart items = panel("", "window, items", "", start, seconds, samples, Sample::windowItems,
                LoadCharts.colour(1));
        XYChart bytes = panel("", "queued MiB", "time, s", start, seconds, samples,
                sample -> Scenarios.mib((long) sample.queuedBytes()), LoadCharts.colour(2));
        Png.write(List.of(rate, items, bytes), 3, 1, png);
        return samples.size();
    }

    /**
     * One of the three stacked panels, with its one line: the top one titled, the bottom one with
     * the time axis title.
     */
    private static XYChart panel(String title, String yLabel, String xLabel, double start, double[] seconds,
                                 List<Sample> samples, ToDoubleFunction<Sample> value, Color colour) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT / 3).title(title).xAxisTitle(xLabel)
                .yAxisTitle(yLabel).build();
        chart.getStyler().setXAxisMin(start).setYAxisMin(0.0).setYAxisDecimalPattern("#,##0.##")
                .setXAxisTitleVisible(!xLabel.isEmpty()).setLegendVisible(false);
        LoadCharts.style(chart.getStyler(), !title.isEmpty());
        chart.addSeries(yLabel, seconds, samples.stream().mapToDouble(value).toArray())
                .setMarker(SeriesMarkers.NONE).setLineColor(colour);
        return chart;
    }
}
