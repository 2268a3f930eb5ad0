package io.sluice.server.load;

import io.sluice.lab.Csv;
import io.sluice.lab.Load;
import io.sluice.server.Lane;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A run's raw results, {@code rows.csv}: one line per lane, step and repeat as measured, with its commit, JDK,
 * scale and repeat (a file without the {@code repeat} column is repeat 1). Figures are at full precision
 * ({@code NaN} where not measured), so a report computes the tables and gates the run printed.
 */
final class RowsCsv {

    static final String FILE = "rows.csv";
    static final String HEADER = "commit,jdk,scale,scenario,step,lane,requestsPerSecond,mibPerSecond,p50Millis,"
            + "p99Millis,p999Millis,timeouts,errors,idleRssMiB,peakRssMiB,heapPeakShare,heapAfterGcMiB,directPeakMiB,"
            + "sendQueuePeakMiB,threads,cpuSeconds,cpuSecondsPerGiB,heapAllocatedMiBPerGiB,load1Before,load1After,"
            + "othersBusy,drainRssAtLoadEndMiB,drainRssMaxMiB,drainRssAfterMiB,liveSetIdleMiB,liveSetAfterDrainMiB,"
            + "drainNote,note,repeat";
    static final String HEADER_WITHOUT_REPEAT = HEADER.substring(0, HEADER.lastIndexOf(','));
    private static final int FIELDS = HEADER.split(",").length;

    record Origin(String commit, String jdk, String scale) {}

    record Line(Origin origin, Row row, int repeat) {}

    private RowsCsv() {}

    /** Appends a line to {@code file}, after the header if the file is new. */
    static void append(Path file, Origin origin, Row row, int repeat) throws IOException {
        String line = format(origin, row, repeat) + "\n";
        if (!Files.exists(file)) {
            line = HEADER + "\n" + line;
        }
        Files.writeString(file, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    static String format(Origin origin, Row row, int repeat) {
        Drain drain = row.drain();
        Load load = row.load();
        return Stream.of(
                        Csv.quote(origin.commit()),
                        Csv.quote(origin.jdk()),
                        Csv.quote(origin.scale()),
                        Csv.quote(row.scenario()),
                        Csv.quote(row.step()),
                        row.lane().flag(),
                        row.requestsPerSecond(),
                        row.mibPerSecond(),
                        row.p50Millis(),
                        row.p99Millis(),
                        row.p999Millis(),
                        row.timeouts(),
                        row.errors(),
                        row.idleRssMiB(),
                        row.peakRssMiB(),
                        row.heapPeakShare(),
                        row.heapAfterGcMiB(),
                        row.directPeakMiB(),
                        row.sendQueuePeakMiB(),
                        row.threads(),
                        row.cpuSeconds(),
                        row.cpuSecondsPerGiB(),
                        row.heapAllocatedMiBPerGiB(),
                        load.load1Before(),
                        load.load1After(),
                        load.othersBusy(),
                        drain == null ? "" : drain.rssAtLoadEndMiB(),
                        drain == null ? "" : drain.rssMaxOverDrainMiB(),
                        drain == null ? "" : drain.rssAfterDrainMiB(),
                        drain == null ? "" : drain.liveSetIdleMiB(),
                        drain == null ? "" : drain.liveSetAfterDrainMiB(),
                        drain == null ? "" : Csv.quote(drain.note()),
                        Csv.quote(row.note()),
                        repeat)
                .map(String::valueOf)
                .collect(Collectors.joining(","));
    }

    static List<Line> read(Path file) throws IOException {
        return Csv.read(
                file, List.of(HEADER, HEADER_WITHOUT_REPEAT), (header, fields) -> parse(fields, header.equals(HEADER)));
    }

    static Line parse(List<String> columns, boolean repeats) {
        int fields = repeats ? FIELDS : FIELDS - 1;
        if (columns.size() != fields) {
            throw new IllegalArgumentException(fields + " fields expected, found " + columns.size());
        }
        int repeat = repeats ? Integer.parseInt(columns.get(FIELDS - 1)) : 1;
        if (repeat < 1) {
            throw new IllegalArgumentException("repeat must be 1 or more, was " + repeat);
        }
        Drain drain = columns.get(26).isEmpty()
                ? null
                : new Drain(
                        d(columns, 26),
                        d(columns, 27),
                        d(columns, 28),
                        d(columns, 29),
                        d(columns, 30),
                        columns.get(31));
        Row row = new Row(
                columns.get(3),
                columns.get(4),
                Lane.parse(columns.get(5)),
                d(columns, 6),
                d(columns, 7),
                d(columns, 8),
                d(columns, 9),
                d(columns, 10),
                Long.parseLong(columns.get(11)),
                Long.parseLong(columns.get(12)),
                d(columns, 13),
                d(columns, 14),
                d(columns, 15),
                d(columns, 16),
                d(columns, 17),
                d(columns, 18),
                Long.parseLong(columns.get(19)),
                d(columns, 20),
                d(columns, 21),
                d(columns, 22),
                new Load(d(columns, 23), d(columns, 24), d(columns, 25)),
                drain,
                columns.get(32));
        return new Line(new Origin(columns.get(0), columns.get(1), columns.get(2)), row, repeat);
    }

    private static double d(List<String> fields, int index) {
        return Double.parseDouble(fields.get(index));
    }
}
