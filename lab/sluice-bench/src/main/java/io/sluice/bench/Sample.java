package io.sluice.bench;

import io.sluice.lab.Load;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * One measured sample: a provider's invocations (all {@code parallelism} operations at once,
 * repeated for the minimum sample time) in one round of one cell; times and costs are the mean per
 * invocation, peaks the maximum. {@code status} is {@code OK} or {@code FAILED: why}. A samples
 * file is CSV with the {@link #HEADER} line; {@link #read} also reads the headerless files of
 * earlier runs, which had no origin and no load ({@code unknown} and NaN).
 */
public record Sample(
        Origin origin,
        Cell cell,
        String provider,
        int fork,
        int round,
        long nanos,
        long cpuNanos,
        long allocatedBytes,
        long peakHeapBytes,
        long peakDirectBytes,
        int peakThreads,
        Load load,
        String status) {

    /** {@code cell} is {@link Cell#spec()}; {@code bytes} is what one invocation moves. */
    public static final String HEADER = "commit,jdk,profile,cell,provider,fork,round,bytes,seconds,cpuSeconds,"
            + "allocatedBytes,peakHeapBytes,peakDirectBytes,peakThreads,load1Before,load1After,othersBusy,status";

    private static final int FIELDS = 18;
    private static final int LEGACY_FIELDS = 13;

    /** Where a sample comes from: the bench jar's commit, the fork's {@code java.version}, the profile. */
    public record Origin(String commit, String jdk, String profile) {
        public static final Origin UNKNOWN = new Origin("unknown", "unknown", "unknown");
    }

    public boolean ok() {
        return status.equals("OK");
    }

    /** This sample with {@code newLoad}: a cell's load is known only when the cell ends. */
    public Sample with(Load newLoad) {
        return new Sample(
                origin,
                cell,
                provider,
                fork,
                round,
                nanos,
                cpuNanos,
                allocatedBytes,
                peakHeapBytes,
                peakDirectBytes,
                peakThreads,
                newLoad,
                status);
    }

    public String toCsv() {
        return String.format(
                Locale.ROOT,
                "%s,%s,%s,%s,%s,%d,%d,%d,%.9f,%.9f,%d,%d,%d,%d,%.2f,%.2f,%.3f,%s",
                origin.commit(),
                origin.jdk(),
                origin.profile(),
                cell.spec(),
                provider,
                fork,
                round,
                cell.totalBytes(),
                nanos / 1e9,
                cpuNanos / 1e9,
                allocatedBytes,
                peakHeapBytes,
                peakDirectBytes,
                peakThreads,
                load.load1Before(),
                load.load1After(),
                load.othersBusy(),
                status.replace(',', ';').replace('\n', ' '));
    }

    /** Parses a {@link #toCsv()} line, or a line of the earlier headerless format. */
    public static Sample parse(String line) {
        String[] fields = line.split(",", FIELDS);
        if (fields.length == FIELDS) {
            return new Sample(
                    new Origin(fields[0], fields[1], fields[2]),
                    Cell.parse(fields[3]),
                    fields[4],
                    Integer.parseInt(fields[5]),
                    Integer.parseInt(fields[6]),
                    seconds(fields[8]),
                    seconds(fields[9]),
                    Long.parseLong(fields[10]),
                    Long.parseLong(fields[11]),
                    Long.parseLong(fields[12]),
                    Integer.parseInt(fields[13]),
                    new Load(
                            Double.parseDouble(fields[14]),
                            Double.parseDouble(fields[15]),
                            Double.parseDouble(fields[16])),
                    fields[17]);
        }
        fields = line.split(
                ",", LEGACY_FIELDS); // fork,op,sizeBytes,parallelism,provider,round,nanos,cpuNanos,...,status
        if (fields.length != LEGACY_FIELDS) {
            throw new IllegalArgumentException("not a sample line: " + line);
        }
        Cell cell = new Cell(Op.valueOf(fields[1]), Long.parseLong(fields[2]), Integer.parseInt(fields[3]));
        return new Sample(
                Origin.UNKNOWN,
                cell,
                fields[4],
                Integer.parseInt(fields[0]),
                Integer.parseInt(fields[5]),
                Long.parseLong(fields[6]),
                Long.parseLong(fields[7]),
                Long.parseLong(fields[8]),
                Long.parseLong(fields[9]),
                Long.parseLong(fields[10]),
                Integer.parseInt(fields[11]),
                Load.UNKNOWN,
                fields[12]);
    }

    private static long seconds(String text) {
        return Math.round(Double.parseDouble(text) * 1e9);
    }

    /** Every sample in a samples file; an empty list if there is no file. */
    public static List<Sample> read(Path file) throws IOException {
        return !Files.exists(file)
                ? List.of()
                : Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                        .filter(line -> !line.isBlank() && !line.equals(HEADER) && !line.startsWith("fork,"))
                        .map(Sample::parse)
                        .toList();
    }
}
