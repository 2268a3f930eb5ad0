package io.sluice.lab.s3;

import io.sluice.lab.ByteSizes;
import io.sluice.lab.Estimate;
import io.sluice.s3.UploadOptions;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * The {@code uploads}, {@code downloads} and {@code stream} tables. Per size, client count and
 * transfer: MiB/s (mean of the successful samples, 95% bootstrap interval); for sluice's, the ratio
 * to the SDK's best path of the cell (the SDK transfer of that direction with the highest mean
 * there) with its interval; the client JVM's and the server JVM's CPU seconds per GiB (means); the
 * client's peak heap in use and peak direct memory (the highest sample). The stream table shows
 * instead the live heap the uploads added (the highest sample) beside sluice's stated bound: read
 * after ordinary collections in the timed samples, and after forced full collections in the memory
 * samples ({@code -} in a run without them).
 */
final class S3Tables {

    /** With fewer samples a side's bootstrap is too coarse for its interval to mean much. */
    static final int MIN_SAMPLES = 3;

    private static final double MIB = 1024 * 1024;

    private S3Tables() {}

    static String uploads(S3Run run) {
        return files(run.of(Transfer.Direction.UPLOAD));
    }

    static String downloads(S3Run run) {
        return files(run.of(Transfer.Direction.DOWNLOAD));
    }

    /** The SDK transfer with the highest mean MiB/s among {@code samples} in one cell, if any ran there. */
    static Optional<Transfer> sdkBest(List<S3Sample> samples, long size, int clients) {
        return Arrays.stream(Transfer.values())
                .filter(transfer -> transfer.side == Transfer.Side.SDK)
                .filter(transfer -> S3Run.values(samples, transfer, size, clients, S3Sample::mibPerSecond).length > 0)
                .max(Comparator.comparingDouble(transfer -> Arrays.stream(
                                S3Run.values(samples, transfer, size, clients, S3Sample::mibPerSecond))
                        .average()
                        .orElseThrow()));
    }

    /**
     * The SDK upload with the highest mean MiB/s among those that send a file of {@code size} the way
     * {@code upload(file)} with the default options does: one PUT up to the default part size, else a
     * multipart upload (so {@code sdk-put-fromFile} is left out above it); if any ran in the cell.
     */
    static Optional<Transfer> sdkBestLikeForLike(List<S3Sample> samples, long size, int clients) {
        boolean multipart = size > UploadOptions.DEFAULT_PART_SIZE_BYTES;
        return Arrays.stream(Transfer.values())
                .filter(transfer ->
                        transfer.side == Transfer.Side.SDK && transfer.direction == Transfer.Direction.UPLOAD)
                .filter(transfer -> !(multipart && transfer == Transfer.SDK_PUT_FROM_FILE))
                .filter(transfer -> S3Run.values(samples, transfer, size, clients, S3Sample::mibPerSecond).length > 0)
                .max(Comparator.comparingDouble(transfer -> Arrays.stream(
                                S3Run.values(samples, transfer, size, clients, S3Sample::mibPerSecond))
                        .average()
                        .orElseThrow()));
    }

    /** {@code transfer}'s mean MiB/s over the SDK's best path's in one cell; {@link Estimate#NONE} if either is missing. */
    static Estimate toSdkBest(List<S3Sample> samples, Transfer transfer, long size, int clients) {
        return sdkBest(samples, size, clients)
                .map(best -> S3Run.ratioInTurns(samples, transfer, best, size, clients, S3Sample::mibPerSecond))
                .orElse(Estimate.NONE);
    }

    private static String files(List<S3Sample> samples) {
        StringBuilder md = new StringBuilder(
                "| size | clients | transfer | MiB/s | / SDK's best | client CPU s/GiB "
                        + "| server CPU s/GiB | peak heap MiB | peak direct MiB |\n|---|---:|---|---:|---:|---:|---:|---:|---:|\n");
        boolean few = false;
        for (long size : S3Run.sizes(samples)) {
            for (int clients : S3Run.clients(samples)) {
                Optional<Transfer> best = sdkBest(samples, size, clients);
                for (Transfer transfer : Transfer.values()) {
                    List<S3Sample> cell = S3Run.cell(samples, transfer, size, clients);
                    if (cell.isEmpty()) {
                        continue;
                    }
                    double[] mib = S3Run.values(samples, transfer, size, clients, S3Sample::mibPerSecond);
                    String against;
                    if (transfer.side == Transfer.Side.SLUICE) {
                        Estimate ratio = toSdkBest(samples, transfer, size, clients);
                        boolean fewHere = best.isPresent()
                                && Math.min(
                                                mib.length,
                                                S3Run.values(samples, best.get(), size, clients, S3Sample::mibPerSecond)
                                                        .length)
                                        < MIN_SAMPLES;
                        few |= fewHere;
                        against = ratio.format() + (fewHere ? " *" : "");
                    } else {
                        against = transfer.side == Transfer.Side.PLAIN_HTTP
                                ? "server ceiling"
                                : best.equals(Optional.of(transfer)) ? "SDK's best" : "";
                    }
                    md.append(String.format(
                            Locale.ROOT,
                            "| %s | %d | %s%s | %s | %s | %s | %s | %s | %s |%n",
                            ByteSizes.format(size),
                            clients,
                            transfer.label,
                            failed(cell),
                            mean(mib),
                            against,
                            figure(samples, transfer, size, clients, S3Sample::clientCpuSecondsPerGiB, false, "%.2f"),
                            figure(samples, transfer, size, clients, S3Sample::serverCpuSecondsPerGiB, false, "%.2f"),
                            peakHeapMiB(samples, transfer, size, clients),
                            peakDirectMiB(samples, transfer, size, clients)));
                }
            }
        }
        return md
                + (few
                        ? "\n\\* fewer than " + MIN_SAMPLES
                                + " samples on a side: the interval is too narrow to judge by.\n"
                        : "");
    }

    /**
     * The {@code tuning} table, under the tuning the run recorded: each of the SDK's tuned transfers beside
     * the same transfer on the SDK's defaults, per cell where both ran: MiB/s of each, the ratio (samples paired by turn), client CPU
     * seconds per GiB and peak heap of each. A run without tuned transfers says so.
     */
    static String tuning(S3Run run) {
        StringBuilder md = new StringBuilder();
        for (Transfer.Direction direction : Transfer.Direction.values()) {
            List<S3Sample> samples = run.of(direction);
            for (long size : S3Run.sizes(samples)) {
                for (int clients : S3Run.clients(samples)) {
                    for (Transfer tuned : Transfer.values()) {
                        Optional<Transfer> untuned = tuned.untuned();
                        if (untuned.isEmpty()
                                || S3Run.cell(samples, tuned, size, clients).isEmpty()
                                || S3Run.cell(samples, untuned.get(), size, clients)
                                        .isEmpty()) {
                            continue;
                        }
                        Transfer plain = untuned.get();
                        md.append(String.format(
                                Locale.ROOT,
                                "| %s | %d | %s%s | %s | %s | %s | %s / %s | %s / %s |%n",
                                ByteSizes.format(size),
                                clients,
                                tuned.label,
                                failed(S3Run.cell(samples, tuned, size, clients))
                                        + failed(S3Run.cell(samples, plain, size, clients)),
                                mean(S3Run.values(samples, tuned, size, clients, S3Sample::mibPerSecond)),
                                mean(S3Run.values(samples, plain, size, clients, S3Sample::mibPerSecond)),
                                S3Run.ratioInTurns(samples, tuned, plain, size, clients, S3Sample::mibPerSecond)
                                        .format(),
                                figure(samples, tuned, size, clients, S3Sample::clientCpuSecondsPerGiB, false, "%.2f"),
                                figure(samples, plain, size, clients, S3Sample::clientCpuSecondsPerGiB, false, "%.2f"),
                                peakHeapMiB(samples, tuned, size, clients),
                                peakHeapMiB(samples, plain, size, clients)));
                    }
                }
            }
        }
        return md.length() == 0
                ? "No tuned transfer ran beside its default in this run.\n"
                : "Tuned: " + run.sdkTuning() + ".\n\n"
                        + "| size | clients | tuned transfer | MiB/s tuned | MiB/s on the SDK's defaults | tuned / defaults "
                        + "| client CPU s/GiB tuned / defaults | peak heap MiB tuned / defaults |\n"
                        + "|---|---:|---|---:|---:|---:|---:|---:|\n" + md;
    }

    static String stream(S3Run run) {
        List<S3Sample> samples = run.of(Transfer.Direction.STREAM);
        StringBuilder md = new StringBuilder(
                "| size | clients | transfer | MiB/s | live heap added MiB | live heap added MiB, full collections "
                        + "| sluice's bound MiB | peak heap MiB | peak direct MiB | client CPU s/GiB |\n"
                        + "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (long size : S3Run.sizes(samples)) {
            for (int clients : S3Run.clients(samples)) {
                for (Transfer transfer : List.of(
                        Transfer.SLUICE_STREAM,
                        Transfer.SDK_MULTIPART_FROM_PUBLISHER,
                        Transfer.SDK_MULTIPART_FROM_PUBLISHER_TUNED)) {
                    List<S3Sample> cell = S3Run.cell(samples, transfer, size, clients);
                    if (cell.isEmpty()) {
                        continue;
                    }
                    long bound =
                            cell.stream().mapToLong(S3Sample::boundBytes).max().orElse(-1);
                    md.append(String.format(
                            Locale.ROOT,
                            "| %s | %d | %s%s | %s | %s | %s | %s | %s | %s | %s |%n",
                            ByteSizes.format(size),
                            clients,
                            transfer.label,
                            failed(cell),
                            mean(S3Run.values(samples, transfer, size, clients, S3Sample::mibPerSecond)),
                            mostAdded(samples, transfer, size, clients),
                            mostAdded(run.memoryOf(Transfer.Direction.STREAM), transfer, size, clients),
                            bound < 0 ? "none stated" : String.format(Locale.ROOT, "%.0f", bound / MIB),
                            peakHeapMiB(samples, transfer, size, clients),
                            peakDirectMiB(samples, transfer, size, clients),
                            figure(samples, transfer, size, clients, S3Sample::clientCpuSecondsPerGiB, false, "%.2f")));
                }
            }
        }
        return md.toString();
    }

    /** {@code  (2 of 5 failed: OutOfMemoryError)} after a transfer's label, or nothing; each reason's first sentence. */
    private static String failed(List<S3Sample> cell) {
        List<S3Sample> failed = cell.stream().filter(sample -> !sample.ok()).toList();
        return failed.isEmpty()
                ? ""
                : " (" + failed.size() + " of " + cell.size() + " failed: "
                        + String.join(
                                "; ",
                                failed.stream()
                                        .map(sample -> firstSentence(sample.outcome()))
                                        .distinct()
                                        .toList())
                        + ")";
    }

    /** An outcome up to its first full stop: the SDK's messages go on with paragraphs of advice. */
    static String firstSentence(String outcome) {
        int stop = outcome.indexOf(". ");
        return stop < 0 ? outcome : outcome.substring(0, stop + 1);
    }

    /** {@code 812.4 (790.1-830.0)}: the mean and its 95% interval; {@code -} without samples. */
    private static String mean(double[] values) {
        Estimate mean = Estimate.mean(values);
        return Double.isNaN(mean.value())
                ? "-"
                : String.format(Locale.ROOT, "%.1f (%.1f-%.1f)", mean.value(), mean.low(), mean.high());
    }

    /** The most live heap, in MiB, a successful sample of the cell added. */
    private static String mostAdded(List<S3Sample> samples, Transfer transfer, long size, int clients) {
        return figure(samples, transfer, size, clients, sample -> sample.attributableHeapBytes() / MIB, true, "%.0f");
    }

    /** The mean (or the highest, if {@code max}) of {@code value} over the cell's successful samples. */
    /** The highest peak heap of {@code transfer}'s samples in one cell, in MiB. */
    private static String peakHeapMiB(List<S3Sample> samples, Transfer transfer, long size, int clients) {
        return figure(samples, transfer, size, clients, sample -> sample.peakHeapBytes() / MIB, true, "%.0f");
    }

    /** The highest peak direct memory of {@code transfer}'s samples in one cell, in MiB. */
    private static String peakDirectMiB(List<S3Sample> samples, Transfer transfer, long size, int clients) {
        return figure(samples, transfer, size, clients, sample -> sample.peakDirectBytes() / MIB, true, "%.0f");
    }

    private static String figure(
            List<S3Sample> samples,
            Transfer transfer,
            long size,
            int clients,
            ToDoubleFunction<S3Sample> value,
            boolean max,
            String format) {
        double[] values = S3Run.values(samples, transfer, size, clients, value);
        if (values.length == 0) {
            return "-";
        }
        return String.format(
                Locale.ROOT,
                format,
                max
                        ? Arrays.stream(values).max().orElseThrow()
                        : Arrays.stream(values).average().orElseThrow());
    }
}
