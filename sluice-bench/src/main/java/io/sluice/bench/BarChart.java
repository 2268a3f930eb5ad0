package io.sluice.bench;

import io.sluice.testkit.Png;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.DoubleSummaryStatistics;
import java.util.List;

/**
 * A grouped bar chart (XChart): one group per category (a cell), one coloured bar per series (a
 * provider), optionally on a log scale. Missing or failed values ({@code NaN}, or not positive) have
 * no bar.
 */
public final class BarChart {

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
    public BarChart(String title, String axisLabel, List<String> categories, List<String> series,
                    double[][] values, boolean logScale) {
        if (values.length != series.size()) {
            throw new IllegalArgumentException("one value row per series: " + values.length + " != " + series.size());
        }
        int width = 250 + Math.max(60, series.size() * 9 + 16) * Math.max(1, categories.size());
        DoubleSummaryStatistics positive = Arrays.stream(values).flatMapToDouble(Arrays::stream).filter(v -> v > 0)
                .summaryStatistics();
        double min = positive.getMin();
        double max = positive.getMax();
        boolean anyBar = positive.getCount() > 0;
        boolean log = logScale && anyBar; // a log axis needs at least one positive value
        chart = new CategoryChartBuilder().width(width).height(HEIGHT).title(title)
                .yAxisTitle(axisLabel + (log ? " (log scale)" : "")).build();
        chart.getStyler().setYAxisLogarithmic(log).setPlotGridVerticalLinesVisible(false)
                .setLegendPosition(Styler.LegendPosition.OutsideE).setSeriesColors(PALETTE)
                .setChartBackgroundColor(Color.WHITE);
        if (log) { // whole decades: bars rise from the decade below the smallest value
            double bottom = Math.pow(10, Math.floor(Math.log10(min)));
            double top = Math.max(bottom * 10, Math.pow(10, Math.ceil(Math.log10(max))));
            chart.getStyler().setYAxisMin(bottom).setYAxisMax(top);
        }
        List<String> names = categories.stream().map(c -> c.replace('\n', ' ')).toList();
        for (int s = 0; s < series.size(); s++) {
            List<Double> bars = new ArrayList<>();
            for (int c = 0; c < categories.size(); c++) {
                double v = values[s][c];
                bars.add(v > 0 ? Double.valueOf(v) : anyBar ? null : Double.valueOf(0));
            }
            chart.addSeries(series.get(s), names, bars);
        }
    }

    /** Writes the chart as a PNG, creating the directory if needed. */
    public void writePng(Path file) throws IOException {
        Png.write(List.of(chart), 1, 1, file);
    }

    /** The chart's width in pixels. */
    int width() {
        return chart.getWidth();
    }
}
