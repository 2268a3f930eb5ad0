package io.sluice.bench;

import io.sluice.lab.Load;
import io.sluice.lab.Quietness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * What a run's samples say about the run: the commit and JDK they were measured with, the profile,
 * and whether the machine was quiet. A run is NOISY if other work was busy during any cell (see
 * {@link Load}); its quietness is unknown if its samples carry no load (files from before load was
 * recorded, or a platform without {@code /proc}).
 */
public record RunInfo(
        String commits,
        String jdks,
        String profiles,
        int cells,
        int noisyCells,
        int cellsWithoutLoad,
        double maxOthersBusy,
        double maxLoad1Before) {

    public static RunInfo of(List<Sample> samples) {
        int cells = cells(samples, sample -> true);
        return new RunInfo(
                distinct(samples, sample -> sample.origin().commit()),
                distinct(samples, sample -> sample.origin().jdk()),
                distinct(samples, sample -> sample.origin().profile()),
                cells,
                cells(samples, sample -> sample.load().noisy()),
                cells - cells(samples, sample -> !Double.isNaN(sample.load().othersBusy())),
                max(samples, Load::othersBusy),
                max(samples, Load::load1Before));
    }

    private static String distinct(List<Sample> samples, Function<Sample, String> value) {
        return samples.stream().map(value).distinct().collect(Collectors.joining("+"));
    }

    /** The cells of forks (each has one load) with a sample that matches. */
    private static int cells(List<Sample> samples, Predicate<Sample> matching) {
        return (int) samples.stream()
                .filter(matching)
                .map(sample -> sample.fork() + " " + sample.cell().spec())
                .distinct()
                .count();
    }

    /** The highest known value; NaN if none is known. */
    private static double max(List<Sample> samples, ToDoubleFunction<Load> value) {
        return samples.stream()
                .mapToDouble(sample -> value.applyAsDouble(sample.load()))
                .filter(known -> !Double.isNaN(known))
                .max()
                .orElse(Double.NaN);
    }

    public boolean noisy() {
        return noisyCells > 0;
    }

    /** Whether every cell's load was recorded and none was noisy ({@link Quietness#quiet()}). */
    public boolean quiet() {
        return quietness().quiet();
    }

    /** The quiet rule over the cells of forks, in the words every tool's blocks use. */
    public Quietness quietness() {
        return new Quietness("cell", cells, cellsWithoutLoad, noisyCells, maxOthersBusy);
    }

    /** One line for a report's header. */
    public String line() {
        return "Commit " + commits + ", JDK " + jdks + ", profile " + profiles + "; "
                + quietness().inWords() + ".";
    }

    /** Writes {@code run.properties}: this summary plus what the launcher knows about the run. */
    public void write(Path file, String command, double minutes) throws IOException {
        String text = "# sluice-bench run, summarised from samples.csv\n"
                + "commit=" + commits + "\njdk=" + jdks + "\nprofile=" + profiles + "\ncommand=" + command
                + String.format(
                        Locale.ROOT,
                        "%nminutes=%.1f%ncores=%d%n",
                        minutes,
                        Runtime.getRuntime().availableProcessors())
                + String.format(
                        Locale.ROOT,
                        "cells=%d%nnoisyCells=%d%ncellsWithoutLoad=%d%nnoisyAboveOthersBusy=%.2f%n",
                        cells,
                        noisyCells,
                        cellsWithoutLoad,
                        Load.NOISY_ABOVE)
                + String.format(
                        Locale.ROOT,
                        "maxOthersBusy=%.3f%nmaxLoad1Before=%.2f%nnoisy=%s%n",
                        maxOthersBusy,
                        maxLoad1Before,
                        noisy() ? "true" : quiet() ? "false" : "unknown");
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
