package io.sluice.server.load;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalDouble;

/**
 * Writes the charts of one harness run into a directory: {@code server-a1.png},
 * {@code server-a2.png} and {@code server-b.png}, each only when its scenario ran. (Scenario C's
 * window chart is {@link WindowChart}, drawn from the demand scenario's CSV.)
 */
final class LoadCharts {

    private LoadCharts() {
    }

    /** Draws what the rows allow; returns the files written. */
    static List<Path> write(Scale scale, List<Row> rows, Path directory, PrintStream out) throws IOException {
        List<Path> written = new java.util.ArrayList<>();
        String suffix = " (" + scale.name() + " scale, java " + Runtime.version().feature() + ")";
        if (has(rows, "A1")) {
            Path file = directory.resolve("server-a1.png");
            ConnectionsChart.draw(rows, "A1", "A1: fast 16 KiB GETs, closed loop" + suffix, OptionalDouble.empty(), "",
                    file);
            written.add(file);
        }
        if (has(rows, "A2")) {
            double plateau = scale.platformThreads() / (Scenarios.DELAY_MILLIS / 1000.0);
            Path file = directory.resolve("server-a2.png");
            ConnectionsChart.draw(rows, "A2", "A2: 16 KiB GETs behind 100 ms of slow storage" + suffix,
                    OptionalDouble.of(plateau), String.format(java.util.Locale.ROOT,
                            "lane A plateau: %d threads / 0.1 s = %,.0f req/s", scale.platformThreads(), plateau),
                    file);
            written.add(file);
        }
        if (has(rows, "B")) {
            Path file = directory.resolve("server-b.png");
            SlowClientsChart.draw(rows, "B: slow readers and writers plus steady fast GETs and PUTs" + suffix, file);
            written.add(file);
        }
        for (Path file : written) {
            out.println("chart: " + file);
        }
        return written;
    }

    private static boolean has(List<Row> rows, String scenario) {
        return rows.stream().anyMatch(row -> row.scenario().equals(scenario));
    }
}
