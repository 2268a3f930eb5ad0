package io.sluice.lab.spring;

import io.sluice.lab.ByteSizes;
import io.sluice.lab.Estimate;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The {@code uploads} and {@code downloads} tables: per size, client count and sluice transfer,
 * Spring's and sluice's MiB/s (mean, 95% bootstrap interval), sluice/Spring with its interval and
 * which is faster by it, and the server's CPU seconds per GiB, heap after a full GC (mean) and peak
 * RSS (the highest), Spring's / sluice's. Each row compares a sluice transfer with its
 * {@link Transfer#baseline()}; a row whose baseline is of another kind (sluice's {@code stream}
 * against Spring's {@code multipart}) is marked, and a footnote under the table names the pairing.
 * In a run that also measured a plain upload (sluice without sync, like Spring's), the atomic
 * uploads' rows are marked, and a footnote says what they do that Spring's do not; a run without
 * one has the tables it had before plain uploads existed. A sluice transfer without a sample in the
 * run has no rows.
 */
final class SpringTables {

    /** With fewer samples a side's bootstrap is too coarse for its interval to mean much. */
    static final int MIN_SAMPLES = 3;

    private static final double MIB = 1024 * 1024;

    private SpringTables() {}

    static String uploads(SpringRun run) {
        return table(run.uploads(), Transfer.sluices(true));
    }

    static String downloads(SpringRun run) {
        return table(run.downloads(), Transfer.sluices(false));
    }

    /** {@code sluice}'s mean MiB/s over {@code spring}'s (two transfers' labels) in one cell, paired by turn. */
    static Estimate ratio(List<Sample> samples, String sluice, String spring, long size, int clients) {
        return SpringRun.ratioInTurns(samples, sluice, spring, size, clients, Sample::mibPerSecond);
    }

    private static String table(List<Sample> samples, List<Transfer> sluices) {
        StringBuilder md =
                new StringBuilder("| size | clients | transfer | Spring MiB/s | sluice MiB/s | sluice / Spring "
                        + "| faster | CPU s/GiB Spring / sluice | heap after GC MiB Spring / sluice "
                        + "| peak RSS MiB Spring / sluice |\n|---|---:|---|---:|---:|---:|---|---:|---:|---:|\n");
        List<Transfer> shown = sluices.stream()
                .filter(transfer ->
                        samples.stream().anyMatch(sample -> sample.transfer().equals(transfer.label())))
                .toList();
        boolean plain = shown.stream().anyMatch(transfer -> transfer.upload() && !transfer.atomic);
        boolean few = false;
        for (long size : SpringRun.sizes(samples)) {
            for (int clients : SpringRun.clients(samples)) {
                for (Transfer transfer : shown) {
                    String spring = transfer.baseline();
                    String sluice = transfer.label();
                    double[] springMib = SpringRun.values(samples, spring, size, clients, Sample::mibPerSecond);
                    double[] sluiceMib = SpringRun.values(samples, sluice, size, clients, Sample::mibPerSecond);
                    if (springMib.length == 0 && sluiceMib.length == 0) {
                        continue;
                    }
                    boolean fewHere = Math.min(springMib.length, sluiceMib.length) < MIN_SAMPLES;
                    few |= fewHere;
                    Estimate ratio = ratio(samples, sluice, spring, size, clients);
                    md.append(String.format(
                            Locale.ROOT,
                            "| %s | %d | %s%s | %s | %s | %s%s | %s | %s | %s | %s |%n",
                            ByteSizes.format(size),
                            clients,
                            transfer.kind,
                            marks(transfer, plain),
                            mean(springMib),
                            mean(sluiceMib),
                            ratio.format(),
                            fewHere ? " *" : "",
                            faster(ratio),
                            pair(samples, spring, sluice, size, clients, Sample::cpuSecondsPerGiB, false, "%.2f"),
                            pair(
                                    samples,
                                    spring,
                                    sluice,
                                    size,
                                    clients,
                                    sample -> sample.heapAfterGcBytes() / MIB,
                                    false,
                                    "%.0f"),
                            pair(
                                    samples,
                                    spring,
                                    sluice,
                                    size,
                                    clients,
                                    sample -> sample.peakRssBytes() / MIB,
                                    true,
                                    "%.0f")));
                }
            }
        }
        String notes = "";
        for (Transfer transfer : shown) {
            if (transfer.paired()) {
                notes += String.format(
                        Locale.ROOT,
                        "\n\u2020 %s: %s against %s, the same form: Spring has no %s "
                                + "variant, so the Spring columns are those of the %s row.%n",
                        transfer.kind,
                        transfer.label(),
                        transfer.baseline(),
                        transfer.kind,
                        transfer.against);
            }
        }
        if (plain) {
            notes += "\n\u2021 atomic: sluice's atomic replace, a temporary file forced to the disk, renamed over the "
                    + "target, and the directory forced before the answer, so a stored upload survives a crash; "
                    + "Spring's writes in place and forces nothing. The plain- rows are the same uploads through "
                    + "sluice without forcing, the like-for-like pairs the gates judge; an atomic row below its plain "
                    + "row is what that durability costs.\n";
        }
        if (few) {
            notes +=
                    "\n\\* fewer than " + MIN_SAMPLES + " samples on a side: the interval is too narrow to judge by.\n";
        }
        return md + notes;
    }

    /**
     * A row's marks after its kind: \u2020 for an upload compared with a Spring upload of another kind
     * (sluice's downloads are all compared with Spring's one download, which the row's kind already
     * says), \u2021 for an atomic upload in a table that also has plain ones.
     */
    private static String marks(Transfer transfer, boolean plain) {
        return (transfer.paired() ? " \u2020" : "") + (plain && transfer.atomic ? " \u2021" : "");
    }

    /** {@code 812.4 (790.1-830.0)}: the mean and its 95% interval; {@code -} without samples. */
    private static String mean(double[] values) {
        Estimate mean = Estimate.mean(values);
        return Double.isNaN(mean.value())
                ? "-"
                : String.format(Locale.ROOT, "%.1f (%.1f-%.1f)", mean.value(), mean.low(), mean.high());
    }

    /** Whose mean MiB/s is higher with the whole interval on its side of 1; {@code -} if it straddles 1. */
    private static String faster(Estimate ratio) {
        if (ratio.against(1, false) == Estimate.Verdict.MET) {
            return "sluice";
        }
        return ratio.against(1, true) == Estimate.Verdict.MET ? "Spring" : "-";
    }

    /** Spring's / sluice's mean (or highest, if {@code max}) of {@code value}. */
    private static String pair(
            List<Sample> samples,
            String spring,
            String sluice,
            long size,
            int clients,
            ToDoubleFunction<Sample> value,
            boolean max,
            String format) {
        return one(SpringRun.values(samples, spring, size, clients, value), max, format) + " / "
                + one(SpringRun.values(samples, sluice, size, clients, value), max, format);
    }

    private static String one(double[] values, boolean max, String format) {
        if (values.length == 0) {
            return "-";
        }
        double figure = max
                ? Arrays.stream(values).max().orElseThrow()
                : Arrays.stream(values).average().orElseThrow();
        return String.format(Locale.ROOT, format, figure);
    }
}
