package io.sluice.lab.spring;

import io.sluice.lab.Estimate;
import io.sluice.lab.Quietness;
import io.sluice.lab.ReportCommand;
import io.sluice.lab.SampleOrder;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.IntSummaryStatistics;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * One run of {@link LoadHarness} as its results folder holds it: {@code uploads.csv},
 * {@code downloads.csv} and {@code run.txt} (when it started, and its arguments).
 */
record SpringRun(List<Sample> uploads, List<Sample> downloads, String started, String arguments)
        implements ReportCommand.Run {

    /** The harness's note of its start and arguments in a results folder. */
    static final String ABOUT = "run.txt";

    private static final String STARTED = "started ";
    private static final String ARGUMENTS = "arguments ";

    /** What {@link #ABOUT} holds: the start to the second, and the harness's arguments. */
    static String about(Instant started, String arguments) {
        return STARTED + started.truncatedTo(ChronoUnit.SECONDS) + "\n" + ARGUMENTS + arguments + "\n";
    }

    /**
     * Reads a results folder; a folder without {@link #ABOUT} reads as started and run with
     * arguments "not recorded".
     *
     * @throws IOException if a CSV is missing, malformed or empty, or rows of several commits or JDKs mix
     */
    static SpringRun read(Path folder) throws IOException {
        List<Sample> uploads = Sample.read(folder.resolve("uploads.csv"));
        List<Sample> downloads = Sample.read(folder.resolve("downloads.csv"));
        List<Sample> all = Stream.concat(uploads.stream(), downloads.stream()).toList();
        if (all.isEmpty()) {
            throw new IOException(folder + ": no samples");
        }
        if (all.stream()
                        .map(sample -> sample.commit() + " " + sample.jdk())
                        .distinct()
                        .count()
                > 1) {
            throw new IOException(folder + ": samples of several runs (the commit or the JDK differs)");
        }
        String started = "not recorded";
        String arguments = "not recorded";
        Path about = folder.resolve(ABOUT);
        if (Files.exists(about)) {
            for (String line : Files.readAllLines(about, StandardCharsets.UTF_8)) {
                started = line.startsWith(STARTED) ? line.substring(STARTED.length()) : started;
                arguments = line.startsWith(ARGUMENTS) ? line.substring(ARGUMENTS.length()) : arguments;
            }
        }
        return new SpringRun(uploads, downloads, started, arguments);
    }

    /** The quiet rule over every sample, uploads and downloads. */
    @Override
    public Quietness quietness() {
        return Quietness.of("sample", all().stream().map(Sample::load).toList());
    }

    List<Sample> all() {
        return Stream.concat(uploads.stream(), downloads.stream()).toList();
    }

    /** The sizes measured in {@code samples}, smallest first. */
    static List<Long> sizes(List<Sample> samples) {
        return samples.stream().map(Sample::sizeBytes).distinct().sorted().toList();
    }

    /** The client counts measured in {@code samples}, smallest first. */
    static List<Integer> clients(List<Sample> samples) {
        return samples.stream().map(Sample::clients).distinct().sorted().toList();
    }

    /**
     * {@code value}'s mean for {@code judged} over its mean for {@code against} in one cell, the two
     * transfers' samples paired by turn where both have every turn ({@link SampleOrder}: they ran
     * in turns; {@link Estimate#ratioOfMeansInTurns}).
     */
    static Estimate ratioInTurns(
            List<Sample> samples,
            String judged,
            String against,
            long size,
            int clients,
            ToDoubleFunction<Sample> value) {
        return Estimate.ratioOfMeansInTurns(
                cell(samples, judged, size, clients), cell(samples, against, size, clients), Sample::sample, value);
    }

    private static List<Sample> cell(List<Sample> samples, String transfer, long size, int clients) {
        return samples.stream()
                .filter(sample ->
                        sample.transfer().equals(transfer) && sample.sizeBytes() == size && sample.clients() == clients)
                .toList();
    }

    /** {@code value} of each sample of {@code transfer} at {@code size} with {@code clients}. */
    static double[] values(
            List<Sample> samples, String transfer, long size, int clients, ToDoubleFunction<Sample> value) {
        return cell(samples, transfer, size, clients).stream()
                .mapToDouble(value)
                .toArray();
    }

    /** The fewest and the most recorded samples of a cell (transfer, size, clients). */
    IntSummaryStatistics samplesPerCell() {
        Map<String, Long> counts = all().stream()
                .collect(Collectors.groupingBy(
                        sample -> sample.transfer() + " " + sample.sizeBytes() + " " + sample.clients(),
                        Collectors.counting()));
        return counts.values().stream().mapToInt(Long::intValue).summaryStatistics();
    }

    /** The {@code run} block: origin, samples, the machine's load and the command. */
    String line() {
        Sample first = all().get(0);
        IntSummaryStatistics perCell = samplesPerCell();
        String samples = perCell.getMin() == perCell.getMax()
                ? Integer.toString(perCell.getMax())
                : perCell.getMin() + " to " + perCell.getMax();
        List<String> parts = new ArrayList<>();
        parts.add("Commit " + first.commit() + ", JDK " + first.jdk() + ", started " + started + "; " + samples
                + " recorded samples per cell");
        parts.add(quietness().inWords());
        return String.join("; ", parts) + ".\nCommand: `LoadHarness " + arguments + "`.\n";
    }
}
