package io.sluice.bench;

import io.sluice.bench.providers.Providers;
import io.sluice.lab.Png;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.DoubleSummaryStatistics;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * A grouped bar chart (XChart): one group per category (a cell), one coloured bar per series (a
 * provider), optionally on a log scale. Missing or failed values ({@code NaN}, or not positive) have
 * no bar. {@link #draw} draws a report's charts.
 */
public final class BarChart {

    /** One chart per operation: the file name's start, the title after the operation, the axis. */
    private record Metric(String file, ToDoubleFunction<Row> value, String title, String axis) {}

    private static final List<Metric> METRICS = List.of(
            new Metric("speed", Row::mibPerSecond, "speed (MiB/s, higher is better)", "MiB/s"),
            new Metric("cpu", Row::cpuSecondsPerGiB, "CPU seconds per GiB (lower is better)", "CPU s/GiB"),
            new Metric("alloc", Row::allocatedMiBPerGiB, "heap allocated per GiB moved (lower is better)", "MiB/GiB"));

    /** Chart height in pixels; the width grows with the number of categories and series. */
    static final int HEIGHT = 460;

    private static final Color[] PALETTE = {
        new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0xff7f0e),
        new Color(0x9467bd), new Color(0x8c564b), new Color(0x7f7f7f), new Color(0x17becf),
        new Color(0xbcbd22), new Color(0xe377c2), new Color(0x393b79), new Color(0x637939),
    };

    private final CategoryChart chart;

    /**
     * A chart of {@code values[series][category]}; a category name's line breaks become spaces.
     *
     * @throws IllegalArgumentException unless there is one row of values per series
     */
    public BarChart(
            String title,
            String axisLabel,
            List<String> categories,
            List<String> series,
            double[][] values,
            boolean logScale) {
        if (values.length != series.size()) {
            throw new IllegalArgumentException("one value row per series: " + values.length + " != " + series.size());
        }
        int width = 250 + Math.max(60, series.size() * 9 + 16) * Math.max(1, categories.size());
        DoubleSummaryStatistics positive = Arrays.stream(values)
                .flatMapToDouble(Arrays::stream)
                .filter(value -> value > 0)
                .summaryStatistics();
        double min = positive.getMin();
        double max = positive.getMax();
        boolean anyBar = positive.getCount() > 0;
        boolean log = logScale && anyBar; // a log axis needs at least one positive value
        chart = new CategoryChartBuilder()
                .width(width)
                .height(HEIGHT)
                .title(title)
                .yAxisTitle(axisLabel + (log ? " (log scale)" : ""))
                .build();
        chart.getStyler()
                .setYAxisLogarithmic(log)
                .setPlotGridVerticalLinesVisible(false)
                .setLegendPosition(Styler.LegendPosition.OutsideE)
                .setSeriesColors(PALETTE)
                .setChartBackgroundColor(Color.WHITE);
        if (log) { // whole decades: bars rise from the decade below the smallest value
            double bottom = Math.pow(10, Math.floor(Math.log10(min)));
            double top = Math.max(bottom * 10, Math.pow(10, Math.ceil(Math.log10(max))));
            chart.getStyler().setYAxisMin(bottom).setYAxisMax(top);
        }
        List<String> names =
                categories.stream().map(category -> category.replace('\n', ' ')).toList();
        for (int s = 0; s < series.size(); s++) {
            chart.addSeries(
                    series.get(s),
                    names,
                    Arrays.stream(values[s], 0, categories.size())
                            .mapToObj(value -> value > 0 ? Double.valueOf(value) : anyBar ? null : Double.valueOf(0))
                            .toList());
        }
    }

    /** Writes the chart as a PNG, creating the directory if needed. */
    public void writePng(Path file) throws IOException {
        Png.write(List.of(chart), 1, 1, file);
    }

    /**
     * Draws the charts of a profile's run, as the run itself does: {@code <profile>-speed-<op>.png} and so on, each
     * titled with the profile in brackets; {@code profile} empty (samples of several profiles) drops both.
     */
    public static List<Path> drawRun(Report report, Path dir, String profile) throws IOException {
        return profile.isEmpty() ? draw(report, dir, "", "") : draw(report, dir, profile + "-", " [" + profile + "]");
    }

    /**
     * Writes {@code <prefix>speed-<op>.png}, {@code <prefix>cpu-<op>.png} and {@code <prefix>alloc-<op>.png} for
     * each operation of {@code report}: one group per cell, one bar per provider; returns the files.
     */
    public static List<Path> draw(Report report, Path dir, String prefix, String subtitle) throws IOException {
        List<Path> files = new ArrayList<>();
        for (Op op : Op.values()) {
            List<Cell> cells = report.rowsByCell().keySet().stream()
                    .filter(cell -> cell.op() == op)
                    .toList();
            if (cells.isEmpty()) {
                continue;
            }
            List<String> series = cells.stream()
                    .flatMap(cell -> report.rowsByCell().get(cell).stream())
                    .map(Row::provider)
                    .distinct()
                    .sorted(Comparator.comparingInt(Providers::legendOrder))
                    .toList();
            List<String> categories = cells.stream()
                    .map(cell -> Cell.formatSize(cell.sizeBytes()) + "\nx" + cell.parallelism())
                    .toList();
            String name = op.name().toLowerCase(Locale.ROOT).replace('_', '-');
            for (Metric metric : METRICS) {
                double[][] values = series.stream()
                        .map(provider -> cells.stream()
                                .mapToDouble(cell -> report.row(cell, provider)
                                        .filter(Row::ok)
                                        .map(metric.value()::applyAsDouble)
                                        .orElse(Double.NaN))
                                .toArray())
                        .toArray(double[][]::new); // NaN where a row is missing or failed
                Path file = dir.resolve(prefix + metric.file() + "-" + name + ".png");
                new BarChart(name + ": " + metric.title() + subtitle, metric.axis(), categories, series, values, true)
                        .writePng(file);
                files.add(file);
            }
        }
        return files;
    }
}
