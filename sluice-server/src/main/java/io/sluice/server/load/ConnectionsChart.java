package io.sluice.server.load;

import io.sluice.server.Lane;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalDouble;

/**
 * Scenarios A1 and A2: req/s (left) and p99 (right) per lane against the connection steps, with an
 * optional horizontal plateau line in the req/s panel (A2: lane A's threads / 0.1 s).
 */
final class ConnectionsChart {

    static final int WIDTH = 960;
    static final int HEIGHT = 420;

    private ConnectionsChart() {
    }

    static void draw(List<Row> rows, String scenario, String title, OptionalDouble plateau, String plateauLabel,
                     Path file) throws IOException {
        List<Row> mine = rows.stream().filter(row -> row.scenario().equals(scenario)).toList();
        List<String> steps = mine.stream().map(Row::step).distinct().toList();
        List<Lane> lanes = mine.stream().map(Row::lane).distinct().sorted().toList();
        ChartCanvas canvas = new ChartCanvas(WIDTH, HEIGHT, title);
        double maxRate = Math.max(mine.stream().mapToDouble(Row::requestsPerSecond).max().orElse(1),
                plateau.orElse(0) * 1.1);
        double maxP99 = mine.stream().mapToDouble(Row::p99Millis).filter(value -> !Double.isNaN(value)).max()
                .orElse(1);
        double[] xs = new double[steps.size()];
        Arrays.setAll(xs, i -> i);
        ChartPanel rate = new ChartPanel(canvas, 0, 36, WIDTH / 2, HEIGHT - 36, -0.5, steps.size() - 0.5, maxRate,
                "requests per second");
        ChartPanel p99 = new ChartPanel(canvas, WIDTH / 2, 36, WIDTH / 2, HEIGHT - 36, -0.5, steps.size() - 0.5,
                maxP99, "p99 latency, ms");
        for (Lane lane : lanes) {
            Color colour = ChartCanvas.SERIES_COLOURS[lane.ordinal() % ChartCanvas.SERIES_COLOURS.length];
            rate.line(xs, values(mine, steps, lane, Row::requestsPerSecond), colour, "lane " + lane.flag());
            p99.line(xs, values(mine, steps, lane, Row::p99Millis), colour, "lane " + lane.flag());
        }
        if (plateau.isPresent()) {
            rate.reference(plateau.getAsDouble(), ChartCanvas.INK, plateauLabel);
        }
        rate.categories(steps, "connections");
        p99.categories(steps, "connections");
        canvas.save(file);
    }

    private static double[] values(List<Row> rows, List<String> steps, Lane lane,
                                   java.util.function.ToDoubleFunction<Row> value) {
        double[] values = new double[steps.size()];
        for (int i = 0; i < steps.size(); i++) {
            String step = steps.get(i);
            values[i] = rows.stream().filter(row -> row.lane() == lane && row.step().equals(step))
                    .mapToDouble(value).findFirst().orElse(Double.NaN);
        }
        return values;
    }
}
