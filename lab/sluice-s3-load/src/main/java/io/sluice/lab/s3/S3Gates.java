package io.sluice.lab.s3;

import io.sluice.lab.ByteSizes;
import io.sluice.lab.Estimate;
import io.sluice.lab.Estimate.Verdict;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The targets an S3 run is judged against. The speed gates judge a ratio of means by its 95%
 * bootstrap interval ({@link Estimate#against}): met when the whole interval clears the target,
 * missed when it lies wholly below, inconclusive otherwise; a gate is met only if every cell it
 * names is ({@link Verdict#every}).
 * <ul>
 *   <li><b>file to object:</b> in every cell, {@link Transfer#SLUICE_UPLOAD} moves at least
 *       {@link #TIMES_SDK_BEST} times the MiB/s of the SDK's best upload of that cell
 *       ({@link S3Tables#sdkBest}). Where that best sends one PUT and sluice a multipart upload, the
 *       line also gives the ratio to the SDK's best multipart way ({@link S3Tables#sdkBestLikeForLike}):
 *       a server's cost of assembling parts falls on both sides of that one.</li>
 *   <li><b>file to object, like for like:</b> the same against the SDK's best upload that sends the
 *       file as sluice does, one PUT up to the default part size and a multipart upload above it. It
 *       is the file-to-object target restated for a server that assembles a multipart object by
 *       copying it: S3Proxy's filesystem store writes every part into a new file at completion, so one
 *       PUT per file outruns every multipart upload, the SDK's multipart client's and transfer manager's
 *       as much as sluice's (by a third and more with ten clients saturating the server, by less with
 *       one). Both verdicts are shown.</li>
 *   <li><b>object to file:</b> the same for {@link Transfer#SLUICE_DOWNLOAD_PLAIN}, which writes the
 *       file as {@code toFile} and the transfer manager do (in place, no {@code fsync}); the atomic,
 *       synced download ({@link Transfer#SLUICE_DOWNLOAD}) is shown beside it.</li>
 *   <li><b>reactive source within its bound:</b> every sample of {@link Transfer#SLUICE_STREAM}
 *       succeeded and its live heap added ({@link S3Sample#attributableHeapBytes()}) is at most the
 *       stated bound for its clients plus an allowance: the client JVM's own idle heap, measured in
 *       the same sample. The samples judged are the run's memory samples, whose live heap is read
 *       after forced full collections; the allowance then covers what is not sluice's (the HTTP
 *       client's send buffers per request in flight), and each line also says whether the bound
 *       alone held. A run without memory samples is judged on its timed samples, whose live heap
 *       after a young collection still holds the old generation's garbage, which grows with what the
 *       JVM already holds; the idle heap is that scale, measured rather than assumed. The SDK's
 *       {@code fromPublisher} states no bound: its figures are shown beside, not judged.</li>
 * </ul>
 */
final class S3Gates {

    static final double TIMES_SDK_BEST = 1.0;

    private S3Gates() {}

    /** Every gate, each cell's line and each gate's verdict, as a code block's text. */
    static String render(S3Run run) {
        return files(run) + stream(run);
    }

    /** The gates on files: file to object and object to file against the SDK's best way. */
    static String files(S3Run run) {
        return uploads(run) + downloads(run);
    }

    /** The gate on file to object: {@link Transfer#SLUICE_UPLOAD} against the SDK's best upload. */
    static String uploads(S3Run run) {
        List<String> lines = new ArrayList<>();
        lines.add(String.format(
                Locale.ROOT,
                "file to object: %s / the SDK's best upload MiB/s >= %.1f in every cell",
                Transfer.SLUICE_UPLOAD.label,
                TIMES_SDK_BEST));
        List<S3Sample> samples = run.of(Transfer.Direction.UPLOAD);
        lines.add("=> "
                + speed(
                        samples,
                        Transfer.SLUICE_UPLOAD,
                        S3Tables::sdkBest,
                        (cells, size, clients) -> likeForLike(cells, Transfer.SLUICE_UPLOAD, size, clients),
                        lines));
        lines.add(String.format(
                Locale.ROOT,
                "file to object, like for like: %s / the SDK's best upload that sends the file as it does "
                        + "(one PUT up to the part size, multipart above) MiB/s >= %.1f in every cell",
                Transfer.SLUICE_UPLOAD.label,
                TIMES_SDK_BEST));
        lines.add("=> "
                + speed(
                        samples,
                        Transfer.SLUICE_UPLOAD,
                        S3Tables::sdkBestLikeForLike,
                        (cells, size, clients) -> "",
                        lines));
        return String.join("\n", lines) + "\n";
    }

    /** The gate on object to file: {@link Transfer#SLUICE_DOWNLOAD_PLAIN} against the SDK's best download. */
    static String downloads(S3Run run) {
        List<String> lines = new ArrayList<>();
        lines.add(String.format(
                Locale.ROOT,
                "object to file: %s / the SDK's best download MiB/s >= %.1f in every cell",
                Transfer.SLUICE_DOWNLOAD_PLAIN.label,
                TIMES_SDK_BEST));
        lines.add("=> "
                + speed(
                        run.of(Transfer.Direction.DOWNLOAD),
                        Transfer.SLUICE_DOWNLOAD_PLAIN,
                        S3Tables::sdkBest,
                        (cells, size, clients) -> " (for reference, " + Transfer.SLUICE_DOWNLOAD.label + " "
                                + S3Tables.toSdkBest(cells, Transfer.SLUICE_DOWNLOAD, size, clients)
                                        .format() + ")",
                        lines));
        return String.join("\n", lines) + "\n";
    }

    /** The gate on a reactive source of unknown length: its live heap within its stated bound. */
    static String stream(S3Run run) {
        List<String> lines = new ArrayList<>();
        boolean checked = !run.memoryOf(Transfer.Direction.STREAM).isEmpty();
        lines.add(String.format(
                Locale.ROOT,
                checked
                        ? "reactive source within its bound: every %s memory sample's live heap added "
                                + "(after forced full collections) <= its bound + the JVM's idle heap"
                        : "reactive source within its bound: every %s sample's live heap added <= "
                                + "its bound + the JVM's idle heap",
                Transfer.SLUICE_STREAM.label));
        lines.add("=> "
                + bound(
                        checked ? run.memoryOf(Transfer.Direction.STREAM) : run.of(Transfer.Direction.STREAM),
                        checked,
                        lines));
        return String.join("\n", lines) + "\n";
    }

    /** Chooses, in one cell, the SDK transfer a speed gate compares against. */
    @FunctionalInterface
    private interface Rival {
        Optional<Transfer> in(List<S3Sample> samples, long size, int clients);
    }

    /** What a cell's line adds after its verdict: another ratio shown, not judged; may be empty. */
    @FunctionalInterface
    private interface Aside {
        String of(List<S3Sample> samples, long size, int clients);
    }

    /** A speed gate's line per cell, {@code judged} against the {@code rival} of that cell, and its verdict. */
    private static Verdict speed(
            List<S3Sample> samples, Transfer judged, Rival rival, Aside aside, List<String> lines) {
        if (samples.isEmpty()) {
            lines.add("  not measured in this run");
            return Verdict.NOT_MEASURED;
        }
        List<Verdict> verdicts = new ArrayList<>();
        for (long size : S3Run.sizes(samples)) {
            for (int clients : S3Run.clients(samples)) {
                double[] measured = S3Run.values(samples, judged, size, clients, S3Sample::mibPerSecond);
                Optional<Transfer> against = rival.in(samples, size, clients);
                Estimate ratio = against.map(transfer ->
                                S3Run.ratioInTurns(samples, judged, transfer, size, clients, S3Sample::mibPerSecond))
                        .orElse(Estimate.NONE);
                Verdict verdict = ratio.against(TIMES_SDK_BEST, false);
                verdicts.add(verdict);
                String said = verdict == Verdict.NOT_MEASURED
                        ? (measured.length == 0 ? judged.label + " not measured" : "no SDK transfer measured")
                        : ratio.format() + " against " + against.get().label + ": " + verdict;
                lines.add(String.format(
                        Locale.ROOT,
                        "  %s x%d: %s%s",
                        ByteSizes.format(size),
                        clients,
                        said,
                        aside.of(samples, size, clients)));
            }
        }
        return Verdict.every(verdicts);
    }

    /**
     * For an upload cell whose SDK's best sends the file another way than {@code judged} does (one
     * PUT against a multipart upload): {@code  (like for like, 0.95 (0.90-1.00) against X)}; else nothing.
     */
    private static String likeForLike(List<S3Sample> samples, Transfer judged, long size, int clients) {
        Optional<Transfer> best = S3Tables.sdkBest(samples, size, clients);
        Optional<Transfer> alike = S3Tables.sdkBestLikeForLike(samples, size, clients);
        if (judged.direction != Transfer.Direction.UPLOAD || alike.isEmpty() || alike.equals(best)) {
            return "";
        }
        Estimate ratio = S3Run.ratioInTurns(samples, judged, alike.get(), size, clients, S3Sample::mibPerSecond);
        return " (like for like, multipart against multipart: " + ratio.format() + " against " + alike.get().label
                + ")";
    }

    private static Verdict bound(List<S3Sample> samples, boolean checked, List<String> lines) {
        List<Verdict> verdicts = new ArrayList<>();
        for (long size : S3Run.sizes(samples)) {
            for (int clients : S3Run.clients(samples)) {
                List<S3Sample> cell = S3Run.cell(samples, Transfer.SLUICE_STREAM, size, clients);
                if (cell.isEmpty()) {
                    continue;
                }
                Verdict verdict =
                        Verdict.every(cell.stream().map(S3Gates::withinBound).toList());
                verdicts.add(verdict);
                long failed = cell.stream().filter(sample -> !sample.ok()).count();
                List<S3Sample> sdk = S3Run.cell(samples, Transfer.SDK_MULTIPART_FROM_PUBLISHER, size, clients);
                lines.add(String.format(
                        Locale.ROOT,
                        "  %s x%d: %s; bound %s + allowance %s: %s (for reference, %s: %s)",
                        ByteSizes.format(size),
                        clients,
                        added(cell),
                        mib(cell.stream().mapToLong(S3Sample::boundBytes).max().orElse(-1)),
                        mib(cell.stream()
                                .filter(S3Sample::ok)
                                .mapToLong(S3Sample::idleHeapBytes)
                                .max()
                                .orElse(-1)),
                        verdict + (failed > 0 ? " (" + failed + " failed)" : "") + (checked ? boundAlone(cell) : ""),
                        Transfer.SDK_MULTIPART_FROM_PUBLISHER.label,
                        sdk.isEmpty() ? "not measured" : added(sdk)));
            }
        }
        if (verdicts.isEmpty()) {
            lines.add("  " + Transfer.SLUICE_STREAM.label + " not measured in this run");
        }
        return Verdict.every(verdicts);
    }

    /** {@code ; within the bound alone} or {@code ; above the bound alone}, over the successful samples. */
    private static String boundAlone(List<S3Sample> cell) {
        List<S3Sample> ok = cell.stream().filter(S3Sample::ok).toList();
        if (ok.isEmpty()) {
            return "";
        }
        return ok.stream().allMatch(sample -> sample.attributableHeapBytes() <= sample.boundBytes())
                ? "; within the bound alone"
                : "; above the bound alone";
    }

    /** One sample: met if it succeeded within its bound plus its idle heap, else missed. */
    static Verdict withinBound(S3Sample sample) {
        if (!sample.ok() || sample.boundBytes() < 0) {
            return Verdict.MISSED;
        }
        return sample.attributableHeapBytes() <= sample.boundBytes() + sample.idleHeapBytes()
                ? Verdict.MET
                : Verdict.MISSED;
    }

    /** {@code at most 30 MiB added over 5 samples, 1 failed}. */
    private static String added(List<S3Sample> cell) {
        long ok = cell.stream().filter(S3Sample::ok).count();
        long failed = cell.size() - ok;
        String most = ok == 0
                ? "no sample succeeded"
                : "at most "
                        + mib(cell.stream()
                                .filter(S3Sample::ok)
                                .mapToLong(S3Sample::attributableHeapBytes)
                                .max()
                                .orElseThrow())
                        + " added over " + ok + " samples";
        return most + (failed > 0 ? ", " + failed + " failed" : "");
    }

    private static String mib(long bytes) {
        return bytes < 0 ? "-" : String.format(Locale.ROOT, "%.0f MiB", bytes / (1024.0 * 1024));
    }
}
