package io.sluice.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;

/**
 * What a run's samples say about the run: the commit and JDK they were measured with, the profile,
 * and whether the machine was quiet. A run is NOISY if other work was busy during any cell (see
 * {@link Load}); its quietness is unknown if its samples carry no load (files from before load was
 * recorded, or a platform without {@code /proc}).
 */
public record RunInfo(String commits, String jdks, String profiles, int cells, int noisyCells, int cellsWithoutLoad,
                      double maxOthersBusy, double maxLoad1Before) {

    /** The commit of the tree this jar was built from, {@code -dirty} if it had changes; {@code unknown} if not known. */
    public static String builtCommit() {
        try (InputStream in = RunInfo.class.getResourceAsStream("build.properties")) {
            Properties build = new Properties();
            if (in != null) {
                build.load(in);
            }
            return build.getProperty("commit", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    public static RunInfo of(List<Sample> samples) {
        Set<String> commits = new LinkedHashSet<>();
        Set<String> jdks = new LinkedHashSet<>();
        Set<String> profiles = new LinkedHashSet<>();
        Set<String> cells = new HashSet<>();
        Set<String> noisy = new HashSet<>();
        Set<String> measured = new HashSet<>();
        double maxOthers = Double.NaN;
        double maxLoad = Double.NaN;
        for (Sample sample : samples) {
            commits.add(sample.origin().commit());
            jdks.add(sample.origin().jdk());
            profiles.add(sample.origin().profile());
            String cell = sample.fork() + " " + sample.cell().spec(); // one load per cell of a fork
            cells.add(cell);
            if (!Double.isNaN(sample.load().othersBusy())) {
                measured.add(cell);
            }
            if (sample.load().noisy()) {
                noisy.add(cell);
            }
            maxOthers = max(maxOthers, sample.load().othersBusy());
            maxLoad = max(maxLoad, sample.load().load1Before());
        }
        return new RunInfo(String.join("+", commits), String.join("+", jdks), String.join("+", profiles),
                cells.size(), noisy.size(), cells.size() - measured.size(), maxOthers, maxLoad);
    }

    private static double max(double a, double b) {
        return Double.isNaN(a) ? b : Double.isNaN(b) ? a : Math.max(a, b);
    }

    public boolean noisy() {
        return noisyCells > 0;
    }

    /** Whether every cell's load was recorded and none was noisy. */
    public boolean quiet() {
        return noisyCells == 0 && cellsWithoutLoad == 0 && cells > 0;
    }

    /** {@code quiet}, {@code NOISY (...)} or {@code unknown (...)}, with the figures behind it. */
    public String quietness() {
        if (noisy()) {
            return String.format(Locale.ROOT, "NOISY (other work kept %.0f%% of the cores busy during a cell; "
                    + "%d of %d cells above %.0f%%)", 100 * maxOthersBusy, noisyCells, cells, 100 * Load.NOISY_ABOVE);
        }
        if (!quiet()) {
            return "unknown (no load recorded in " + cellsWithoutLoad + " of " + cells + " cells of forks)";
        }
        return String.format(Locale.ROOT, "quiet (other work: at most %.0f%% of the cores during a cell; "
                + "1-min load average before a cell at most %.2f)", 100 * maxOthersBusy, maxLoad1Before);
    }

    /** One line for a report's header. */
    public String line() {
        return "Commit " + commits + ", JDK " + jdks + ", profile " + profiles + "; machine " + quietness() + ".";
    }

    /** Writes {@code run.properties}: this summary plus what the launcher knows about the run. */
    public void write(Path file, String command, double minutes) throws IOException {
        String text = "# sluice-bench run, summarised from samples.csv\n"
                + "commit=" + commits + "\njdk=" + jdks + "\nprofile=" + profiles + "\ncommand=" + command
                + String.format(Locale.ROOT, "%nminutes=%.1f%ncores=%d%n", minutes, Runtime.getRuntime().availableProcessors())
                + String.format(Locale.ROOT, "cells=%d%nnoisyCells=%d%ncellsWithoutLoad=%d%nnoisyAboveOthersBusy=%.2f%n",
                cells, noisyCells, cellsWithoutLoad, Load.NOISY_ABOVE)
                + String.format(Locale.ROOT, "maxOthersBusy=%.3f%nmaxLoad1Before=%.2f%nnoisy=%s%n", maxOthersBusy,
                maxLoad1Before, noisy() ? "true" : quiet() ? "false" : "unknown");
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
