package io.sluice.lab.s3;

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
import java.util.IntSummaryStatistics;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * One run of {@link S3LoadHarness} as its results folder holds it: {@code samples.csv} (the timed
 * samples), {@code memory.csv} (the memory samples, whose live heap is read after forced full
 * collections: none in a run made before the harness took them) and {@code run.txt}.
 */
record S3Run(List<S3Sample> samples, List<S3Sample> memory, String started, String arguments, String sdkTuning)
        implements ReportCommand.Run {

    static final String SAMPLES = "samples.csv";
    static final String MEMORY = "memory.csv";
    static final String ABOUT = "run.txt";

    private static final String STARTED = "started ";
    private static final String ARGUMENTS = "arguments ";
    private static final String SDK_TUNING = "sdk tuning ";

    /**
     * What {@link #ABOUT} holds: the start to the second, the harness's arguments and the tuning its
     * {@code -tuned} transfers ran on, defaults included.
     */
    static String about(Instant started, String arguments, SdkTuning tuning) {
        return STARTED + started.truncatedTo(ChronoUnit.SECONDS) + "\n" + ARGUMENTS + arguments + "\n" + SDK_TUNING
                + tuning.inWords() + "\n";
    }

    /**
     * Reads a results folder; without {@link #ABOUT}, the start, arguments and SDK tuning read "not recorded".
     *
     * @throws IOException if the CSV is missing, malformed or empty, or rows of several commits or JDKs mix
     */
    static S3Run read(Path folder) throws IOException {
        List<S3Sample> samples = S3Sample.read(folder.resolve(SAMPLES));
        if (samples.isEmpty()) {
            throw new IOException(folder + ": no samples");
        }
        if (samples.stream()
                        .map(sample -> sample.commit() + " " + sample.jdk())
                        .distinct()
                        .count()
                > 1) {
            throw new IOException(folder + ": samples of several runs (the commit or the JDK differs)");
        }
        String started = "not recorded";
        String arguments = "not recorded";
        String sdkTuning = "not recorded";
        Path about = folder.resolve(ABOUT);
        if (Files.exists(about)) {
            for (String line : Files.readAllLines(about, StandardCharsets.UTF_8)) {
                started = line.startsWith(STARTED) ? line.substring(STARTED.length()) : started;
                arguments = line.startsWith(ARGUMENTS) ? line.substring(ARGUMENTS.length()) : arguments;
                sdkTuning = line.startsWith(SDK_TUNING) ? line.substring(SDK_TUNING.length()) : sdkTuning;
            }
        }
        Path memoryCsv = folder.resolve(MEMORY);
        List<S3Sample> memory = Files.exists(memoryCsv) ? S3Sample.read(memoryCsv) : List.of();
        return new S3Run(samples, memory, started, arguments, sdkTuning);
    }

    /** The timed samples of {@code direction}'s transfers. */
    List<S3Sample> of(Transfer.Direction direction) {
        return of(samples, direction);
    }

    /** The memory samples of {@code direction}'s transfers. */
    List<S3Sample> memoryOf(Transfer.Direction direction) {
        return of(memory, direction);
    }

    private static List<S3Sample> of(List<S3Sample> samples, Transfer.Direction direction) {
        return samples.stream()
                .filter(sample -> Transfer.byLabel(sample.transfer())
                        .map(transfer -> transfer.direction == direction)
                        .orElse(false))
                .toList();
    }

    /** The sizes measured in {@code samples}, smallest first. */
    static List<Long> sizes(List<S3Sample> samples) {
        return samples.stream().map(S3Sample::sizeBytes).distinct().sorted().toList();
    }

    /** The client counts measured in {@code samples}, smallest first. */
    static List<Integer> clients(List<S3Sample> samples) {
        return samples.stream().map(S3Sample::clients).distinct().sorted().toList();
    }

    /** The samples of {@code transfer} at {@code size} with {@code clients}, failed ones included. */
    static List<S3Sample> cell(List<S3Sample> samples, Transfer transfer, long size, int clients) {
        return samples.stream()
                .filter(sample -> sample.transfer().equals(transfer.label)
                        && sample.sizeBytes() == size
                        && sample.clients() == clients)
                .toList();
    }

    /**
     * {@code value}'s mean for {@code judged} over its mean for {@code against} in one cell, the two
     * transfers' samples paired by turn where both have every turn ({@link SampleOrder}: they ran
     * in turns; {@link Estimate#ratioOfMeansInTurns}); failed samples left out.
     */
    static Estimate ratioInTurns(
            List<S3Sample> samples,
            Transfer judged,
            Transfer against,
            long size,
            int clients,
            ToDoubleFunction<S3Sample> value) {
        List<S3Sample> top = cell(samples, judged, size, clients).stream()
                .filter(S3Sample::ok)
                .toList();
        List<S3Sample> bottom = cell(samples, against, size, clients).stream()
                .filter(S3Sample::ok)
                .toList();
        return Estimate.ratioOfMeansInTurns(top, bottom, S3Sample::sample, value);
    }

    /** {@code value} of each successful sample of {@code transfer} at {@code size} with {@code clients}. */
    static double[] values(
            List<S3Sample> samples, Transfer transfer, long size, int clients, ToDoubleFunction<S3Sample> value) {
        return cell(samples, transfer, size, clients).stream()
                .filter(S3Sample::ok)
                .mapToDouble(value)
                .toArray();
    }

    /** The {@code run} block: origin, samples, the machine's load and the command. */
    String line() {
        S3Sample first = samples.get(0);
        Map<String, Long> counts = samples.stream()
                .collect(Collectors.groupingBy(
                        sample -> sample.transfer() + " " + sample.sizeBytes() + " " + sample.clients(),
                        Collectors.counting()));
        IntSummaryStatistics perCell =
                counts.values().stream().mapToInt(Long::intValue).summaryStatistics();
        String perCellText = perCell.getMin() == perCell.getMax()
                ? Integer.toString(perCell.getMax())
                : perCell.getMin() + " to " + perCell.getMax();
        return "Commit " + first.commit() + ", JDK " + first.jdk() + ", started " + started + "; " + perCellText
                + " recorded samples per cell; " + quietness().inWords() + ".\nCommand: `S3LoadHarness " + arguments
                + "`.\n";
    }

    /**
     * The quiet rule over the samples. A failed sample without a load reading is left out: its client failed
     * before the recorded part began, so it measured nothing and cannot make a run noisy.
     */
    @Override
    public Quietness quietness() {
        return Quietness.of(
                "sample",
                samples.stream()
                        .filter(sample -> sample.ok() || !sample.loadUnknown())
                        .map(S3Sample::load)
                        .toList());
    }
}
