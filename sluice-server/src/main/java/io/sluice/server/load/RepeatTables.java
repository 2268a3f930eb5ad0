package io.sluice.server.load;

import io.sluice.testkit.Estimate;

import java.util.List;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The tables of a run of several repeats. The compact table gives each lane and step's mean over
 * the repeats with its 95% bootstrap interval ({@link Estimate#mean}), the same figures its gates
 * judge; the full table and the drain table list every repeat's own line (the raw record, each
 * marked with its repeat), since twenty columns of intervals would not be read.
 */
final class RepeatTables {

    private RepeatTables() {
    }

    /** The compact table of means and intervals, one line per scenario, step and lane as repeat 1 ran them. */
    static String compact(List<List<Row>> repeats) {
        StringBuilder table = new StringBuilder("Mean of " + repeats.size() + " repeats per lane and step with its 95%"
                + " interval; timeouts and errors are the repeats' total.\n\n"
                + "| scenario | step | lane | req/s | p50 ms | p99 ms | timeouts | errors | idle / peak RSS MiB "
                + "| peak send-queue MiB | CPU s/GiB | heap alloc MiB/GiB | note |\n"
                + "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (Row first : repeats.get(0)) {
            List<Row> same = repeats.stream().map(repeat -> repeat.stream().filter(row -> row.scenario()
                    .equals(first.scenario()) && row.step().equals(first.step()) && row.lane() == first.lane())
                    .findFirst()).flatMap(Optional::stream).toList();
            long died = same.stream().filter(row -> row.note().startsWith("server died")).count();
            table.append(Row.cells(first.scenario(), first.step(), first.lane().flag(),
                    mean(same, Row::requestsPerSecond, 0), mean(same, Row::p50Millis, 1), mean(same, Row::p99Millis, 1),
                    same.stream().mapToLong(Row::timeouts).sum(), same.stream().mapToLong(Row::errors).sum(),
                    Row.number(average(same, Row::idleRssMiB), 0) + " / " + Row.number(average(same, Row::peakRssMiB), 0),
                    Row.number(average(same, Row::sendQueuePeakMiB), 0), mean(same, Row::cpuSecondsPerGiB, 1),
                    mean(same, Row::heapAllocatedMiBPerGiB, 0), died == 0 ? ""
                            : "server died in " + died + " of " + same.size() + " repeats")).append('\n');
        }
        return table.toString();
    }

    /** Every repeat's rows, each line marked with its repeat. */
    static String table(List<List<Row>> repeats) {
        String[] header = Row.header().split("\n");
        return "| repeat " + header[0] + "\n|---:" + header[1] + "\n" + IntStream.range(0, repeats.size())
                .mapToObj(i -> repeats.get(i).stream().map(row -> "| " + (i + 1) + " " + row.markdown() + "\n")
                        .collect(Collectors.joining())).collect(Collectors.joining());
    }

    /** Scenario B's drain phase of every repeat, each line marked with its repeat; empty without B. */
    static String drains(List<List<Row>> repeats) {
        String one = LoadMain.drains(repeats.get(0));
        if (one.isEmpty()) {
            return "";
        }
        String[] header = Drain.header().split("\n");
        String caption = one.strip().lines().findFirst().orElseThrow();
        return "\n" + caption + "\n| repeat " + header[0] + "\n|---:" + header[1] + "\n"
                + IntStream.range(0, repeats.size()).mapToObj(i -> repeats.get(i).stream()
                        .filter(row -> row.drain() != null && row.step().equals("fast GET"))
                        .map(row -> "| " + (i + 1) + " " + row.drain().markdown(row) + "\n")
                        .collect(Collectors.joining())).collect(Collectors.joining()) + "\n";
    }

    private static String mean(List<Row> rows, ToDoubleFunction<Row> figure, int decimals) {
        Estimate estimate = Estimate.mean(rows.stream().mapToDouble(figure).toArray());
        return Double.isNaN(estimate.value()) ? "n/a" : Row.number(estimate.value(), decimals) + " ("
                + Row.number(estimate.low(), decimals) + ".." + Row.number(estimate.high(), decimals) + ")";
    }

    private static double average(List<Row> rows, ToDoubleFunction<Row> figure) {
        return rows.stream().mapToDouble(figure).average().orElse(Double.NaN);
    }
}
