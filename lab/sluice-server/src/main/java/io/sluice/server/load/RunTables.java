package io.sluice.server.load;

import io.sluice.lab.Estimate;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The tables of a run, from its rows by repeat: the compact one has a line per lane and step (with repeats, the
 * mean and 95% interval its gates judge); the full and drain tables list every row, marked with its repeat.
 */
final class RunTables {

    private RunTables() {}

    /** The compact table, one line per scenario, step and lane as repeat 1 ran them. */
    static String compact(List<List<Row>> repeats) {
        boolean one = repeats.size() == 1;
        StringBuilder table = new StringBuilder(
                one
                        ? ""
                        : "Mean of " + repeats.size() + " repeats per lane and step"
                                + " with its 95% interval; timeouts and errors are the repeats' total.\n\n");
        table.append("| scenario | step | lane | req/s | p50 ms | p99 ms | timeouts | errors | idle / peak RSS MiB "
                + "| peak send-queue MiB | CPU s/GiB | heap alloc MiB/GiB | note |\n"
                + "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (Row first : repeats.get(0)) {
            List<Row> same = repeats.stream()
                    .map(repeat -> repeat.stream()
                            .filter(row -> row.scenario().equals(first.scenario())
                                    && row.step().equals(first.step())
                                    && row.lane() == first.lane())
                            .findFirst())
                    .flatMap(Optional::stream)
                    .toList();
            long died = same.stream()
                    .filter(row -> row.note().startsWith("server died"))
                    .count();
            String note = one
                    ? (died == 0 ? "" : first.note().split(";")[0])
                    : died == 0 ? "" : "server died in " + died + " of " + same.size() + " repeats";
            table.append(Row.cells(
                            first.scenario(),
                            first.step(),
                            first.lane().flag(),
                            mean(same, Row::requestsPerSecond, 0),
                            mean(same, Row::p50Millis, 1),
                            mean(same, Row::p99Millis, 1),
                            same.stream().mapToLong(Row::timeouts).sum(),
                            same.stream().mapToLong(Row::errors).sum(),
                            Row.number(average(same, Row::idleRssMiB), 0) + " / "
                                    + Row.number(average(same, Row::peakRssMiB), 0),
                            Row.number(average(same, Row::sendQueuePeakMiB), 0),
                            mean(same, Row::cpuSecondsPerGiB, 1),
                            mean(same, Row::heapAllocatedMiBPerGiB, 0),
                            note))
                    .append('\n');
        }
        return table.toString();
    }

    static String table(List<List<Row>> repeats) {
        return everyRow(Row.header(), repeats, Row::markdown);
    }

    /** Scenario B's drain phase, one line per lane (the two B rows of a lane share it); empty without B. */
    static String drains(List<List<Row>> repeats) {
        if (repeats.get(0).stream().noneMatch(RunTables::drained)) {
            return "";
        }
        return "\nB drain (load stopped, every client closed, then " + Drain.DRAIN_SECONDS
                + " s; live set = heap after a forced full GC, jcmd GC.run):\n"
                + everyRow(
                        Drain.header(),
                        repeats,
                        row -> drained(row) ? row.drain().markdown(row) : null) + "\n";
    }

    private static boolean drained(Row row) {
        return row.drain() != null && row.step().equals("fast GET");
    }

    /** {@code header}, then every non-null {@code line}; with repeats the first column is the line's repeat. */
    private static String everyRow(String header, List<List<Row>> repeats, Function<Row, String> line) {
        boolean one = repeats.size() == 1;
        String[] headers = header.split("\n");
        StringBuilder table =
                new StringBuilder(one ? header + "\n" : "| repeat " + headers[0] + "\n|---:" + headers[1] + "\n");
        for (int i = 0; i < repeats.size(); i++) {
            for (Row row : repeats.get(i)) {
                String text = line.apply(row);
                if (text != null) {
                    table.append(one ? "" : "| " + (i + 1) + " ").append(text).append('\n');
                }
            }
        }
        return table.toString();
    }

    /** The figure, or with several rows its mean and 95% interval; n/a when not measured. */
    private static String mean(List<Row> rows, ToDoubleFunction<Row> figure, int decimals) {
        if (rows.size() == 1) {
            return Row.number(figure.applyAsDouble(rows.get(0)), decimals);
        }
        Estimate estimate = Estimate.mean(rows.stream().mapToDouble(figure).toArray());
        return Double.isNaN(estimate.value())
                ? "n/a"
                : Row.number(estimate.value(), decimals) + " (" + Row.number(estimate.low(), decimals) + ".."
                        + Row.number(estimate.high(), decimals) + ")";
    }

    private static double average(List<Row> rows, ToDoubleFunction<Row> figure) {
        return rows.stream().mapToDouble(figure).average().orElse(Double.NaN);
    }
}
