package io.sluice.server.ws.load;

import io.sluice.lab.Png;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * The charts of a fan-out run from its time series, one line per lane against the seconds since its
 * load began: {@code websocket-rate.png} (messages/s to all and to the fast clients) and
 * {@code websocket-memory.png} (the server's RSS, heap used and kernel send queues).
 */
final class FanOutCharts {

    static final int WIDTH = 960;
    static final int PANEL_HEIGHT = 300;
    /** One colour per lane in the run's order: bounded, fixed, unbounded, the all-fast run. */
    static final Color[] LANE_COLOURS = {
        new Color(0x2C, 0xA0, 0x2C),
        new Color(0x1F, 0x77, 0xB4),
        new Color(0xD6, 0x27, 0x28),
        new Color(0x7F, 0x7F, 0x7F)
    };

    private FanOutCharts() {}

    static List<Path> write(List<LaneResult> results, List<LaneSample> samples, Path directory) throws IOException {
        List<String> lanes = results.stream().map(LaneResult::lane).distinct().toList();
        String suffix = results.isEmpty()
                ? ""
                : " (" + results.get(0).clients() + " clients, java "
                        + Runtime.Version.parse(results.get(0).jdk()).feature() + ")";
        XYChart all = panel("messages/s delivered per lane" + suffix, "messages/s, all clients");
        XYChart fast = panel("to the fast clients", "messages/s, fast clients");
        XYChart rss = panel("server memory per lane" + suffix, "RSS, MiB");
        XYChart heap = panel("heap used (no collection forced)", "heap used, MiB");
        XYChart kernel = panel("kernel send queues of the server's connections", "send queue, MiB");
        for (int i = 0; i < lanes.size(); i++) {
            String lane = lanes.get(i);
            Color colour = LANE_COLOURS[i % LANE_COLOURS.length];
            List<LaneSample> series = samples.stream()
                    .filter(sample -> sample.lane().equals(lane))
                    .toList();
            rate(all, lane, series, LaneSample::messages, colour);
            rate(fast, lane, series, LaneSample::fastMessages, colour);
            mib(rss, lane, series, LaneSample::rssBytes, colour);
            mib(heap, lane, series, LaneSample::heapUsedBytes, colour);
            mib(kernel, lane, series, LaneSample::sendQueueBytes, colour);
        }
        Path rateFile = directory.resolve("websocket-rate.png");
        Path memoryFile = directory.resolve("websocket-memory.png");
        Png.write(List.of(all, fast), 2, 1, rateFile);
        Png.write(List.of(rss, heap, kernel), 3, 1, memoryFile);
        return List.of(rateFile, memoryFile);
    }

    private static XYChart panel(String title, String yLabel) {
        XYChart chart = new XYChartBuilder()
                .width(WIDTH)
                .height(PANEL_HEIGHT)
                .title(title)
                .xAxisTitle("seconds since the load began")
                .yAxisTitle(yLabel)
                .build();
        chart.getStyler()
                .setYAxisMin(0.0)
                .setYAxisDecimalPattern("#,##0.##")
                .setLegendPosition(Styler.LegendPosition.OutsideE)
                .setChartBackgroundColor(Color.WHITE)
                .setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 12));
        return chart;
    }

    /** The rate of {@code count} over the last {@link Degradation#RATE_WINDOW_SAMPLES} samples at each sample. */
    private static void rate(
            XYChart chart, String lane, List<LaneSample> series, ToLongFunction<LaneSample> count, Color colour) {
        List<Double> seconds = new ArrayList<>();
        List<Double> rates = new ArrayList<>();
        for (int i = 1; i < series.size(); i++) {
            LaneSample from = series.get(Math.max(0, i - Degradation.RATE_WINDOW_SAMPLES));
            LaneSample to = series.get(i);
            seconds.add(to.seconds());
            rates.add((count.applyAsLong(to) - count.applyAsLong(from)) / (to.seconds() - from.seconds()));
        }
        add(chart, lane, seconds, rates, colour);
    }

    private static void mib(
            XYChart chart, String lane, List<LaneSample> series, ToLongFunction<LaneSample> bytes, Color colour) {
        List<LaneSample> known =
                series.stream().filter(sample -> bytes.applyAsLong(sample) >= 0).toList();
        add(
                chart,
                lane,
                known.stream().map(LaneSample::seconds).toList(),
                known.stream()
                        .map(sample -> LaneResult.mib(bytes.applyAsLong(sample)))
                        .toList(),
                colour);
    }

    /** A lane's line; a lane without points gets none (XChart refuses an empty series). */
    private static void add(XYChart chart, String lane, List<Double> seconds, List<Double> values, Color colour) {
        if (!seconds.isEmpty()) {
            chart.addSeries(lane, seconds, values).setMarker(SeriesMarkers.NONE).setLineColor(colour);
        }
    }
}
