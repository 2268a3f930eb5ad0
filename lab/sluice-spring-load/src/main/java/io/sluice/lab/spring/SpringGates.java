package io.sluice.lab.spring;

import io.sluice.lab.ByteSizes;
import io.sluice.lab.Estimate;
import io.sluice.lab.Estimate.Verdict;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;

/**
 * The targets a Spring run is judged against, each by the 95% bootstrap interval of a ratio of
 * means ({@link Estimate#against}): met when the whole interval clears the target, missed when it
 * lies wholly on the wrong side, inconclusive otherwise; a gate is met only if every cell it names
 * is met, missed if one is missed, not measured ({@code n/a}) if none is measured, and inconclusive
 * otherwise.
 * <ul>
 *   <li><b>1.5x transferTo:</b> at every size and at 1 and at 10 clients, sluice's multipart upload
 *       ({@link Transfer#SLUICE_PLAIN_MULTIPART}: the application's {@code FilePart.transferTo} with sluice's
 *       part reader, which stores each file part as it arrives and makes {@code transferTo} a rename,
 *       forcing nothing, as Spring's does not) moves at least {@link #TIMES_MULTIPART} times the MiB/s of
 *       Spring's ({@code FilePart.transferTo} behind Boot's own part reader), and its server spends less CPU
 *       per GiB: the whole interval of the ratio of CPU seconds per GiB lies below 1.</li>
 *   <li><b>5x raw:</b> at every size from {@link #FROM_BYTES}, with one client, sluice's raw-body upload
 *       ({@link Transfer#SLUICE_PLAIN_RAW}: {@code DataBufferFiles.write} with its defaults) moves at least
 *       {@link #TIMES_RAW} times the MiB/s of Spring's ({@code DataBufferUtils.write(Path)}): the writers
 *       alone, each with the disk to itself. With ten clients both share the disk's write-back, which
 *       bounds them alike.</li>
 *   <li><b>3x transferTo:</b> at every size from {@link #FROM_BYTES} and at 1 and at 10 clients,
 *       sluice's streamed multipart upload ({@link Transfer#SLUICE_STREAM}: {@code FileParts.store}
 *       on the form's {@code PartEvent}s) moves at least {@link #TIMES_TRANSFER_TO} times the MiB/s
 *       of Spring's multipart upload ({@code FilePart.transferTo}): the same form, each the
 *       application's way to store its file part. Each cell also shows, for reference, sluice's
 *       {@code FileParts.transferTo} on Boot's {@code FilePart} (behind the same temporary file as
 *       Spring's, so it measures the writer behind that file) and sluice's raw upload (the writer
 *       alone) over Spring's multipart. A run without {@code sluice-stream} samples has its cells
 *       not measured.</li>
 *   <li><b>level with Resource:</b> at every size and at 1 and at 10 clients, sluice's download with
 *       its defaults ({@link Transfer#SLUICE_ZERO_COPY}: {@code FileResponses.write}, zero-copy on
 *       Reactor Netty) moves at least {@link #LEVEL_WITH_RESOURCE} times the MiB/s of Spring's
 *       (returning a {@code Resource}): not slower by more than a tenth. Both send the file with one
 *       {@code sendfile} per response, so their ratio is one in expectation, and a gate asking for
 *       at least 1.0 on the whole interval could only be met by chance or by a slower Spring; what the
 *       gate can ask of a tie is that it is a tie. sluice's reasons to choose its download are what
 *       {@code Resource} lacks (a byte cap, a file that changes length failing the response, metrics),
 *       not speed. Each cell also shows, for reference, the pooled download
 *       ({@link Transfer#SLUICE_DOWNLOAD}) over the same baseline.</li>
 *   <li><b>heap flat:</b> for each of sluice's transfers and client counts, the server's heap after
 *       a full GC following a sample at the largest size measured is at most
 *       {@link #HEAP_GROWTH_AT_MOST} times that at the smallest (1 GiB against 1 MiB in the full run):
 *       what sluice's path holds after a transfer does not grow with the file. The allowance is a
 *       quarter of the application's own heap after GC (its context, Netty, Reactor), a small
 *       fraction of a 1 GiB file.</li>
 * </ul>
 *
 * <p>The first two gates judge like with like: Spring's uploads write in place and force nothing, so
 * they are judged against sluice's plain ones. Each of their lines also shows, for reference, the
 * atomic upload ({@link Transfer#SLUICE_MULTIPART}, {@link Transfer#SLUICE_RAW}: atomic replace with
 * sync) over the same baseline, whose shortfall is its durability's cost. A run from before the
 * plain uploads existed measured only the atomic ones, and its gates judge those, as they did.
 *
 * <p>Heap flat compares two moments of one application, so it is fair only if nothing but the
 * file's size differs between them. A young application's heap after GC grows over its first
 * requests whatever they move (classes loaded, code compiled, Netty's pools and caches filled, for
 * Spring's transfers as for sluice's), and the smallest size is measured first. {@link LoadHarness}
 * therefore runs an unrecorded warm-up pass over every transfer at the smallest and the largest size
 * before its first recorded cell ({@link io.sluice.lab.SampleOrder}), so both moments the gate compares come from a
 * warmed application and the criterion stays as stated. Judging sluice's growth against Spring's in
 * the same cells instead would change what the gate says: a growth with the file that both share
 * would pass, and Spring's own noise would move sluice's verdict.
 */
final class SpringGates {

    static final long FROM_BYTES = 100L << 20;
    static final double TIMES_MULTIPART = 1.5;
    static final double TIMES_RAW = 5.0;
    static final double TIMES_TRANSFER_TO = 3.0;
    static final double LEVEL_WITH_RESOURCE = 0.9;
    static final List<Integer> GATE_CLIENTS = List.of(1, 10);
    static final double HEAP_GROWTH_AT_MOST = 1.25;

    private SpringGates() {}

    /** Every gate, each cell's line and each gate's verdict, as a code block's text. */
    static String render(SpringRun run) {
        List<String> lines = new ArrayList<>();
        Transfer judgedMultipart = likeForLike(run, Transfer.SLUICE_PLAIN_MULTIPART, Transfer.SLUICE_MULTIPART);
        lines.add(String.format(
                Locale.ROOT,
                "1.5x transferTo: %s / %s MiB/s >= %.1f and CPU s/GiB below Spring's, at "
                        + "every size, at 1 and 10 clients",
                judgedMultipart.label(),
                judgedMultipart.baseline(),
                TIMES_MULTIPART));
        Verdict multipart = multipart(run, judgedMultipart, lines);
        lines.add("=> " + multipart);
        Transfer judgedRaw = likeForLike(run, Transfer.SLUICE_PLAIN_RAW, Transfer.SLUICE_RAW);
        lines.add(String.format(
                Locale.ROOT,
                "5x raw: %s / %s MiB/s >= %.1f at every size from %s, at 1 client",
                judgedRaw.label(),
                judgedRaw.baseline(),
                TIMES_RAW,
                ByteSizes.format(FROM_BYTES)));
        Verdict raw = raw(run, judgedRaw, lines);
        lines.add("=> " + raw);
        lines.add(String.format(
                Locale.ROOT,
                "3x transferTo: %s / %s MiB/s >= %.1f at every size from %s, at 1 and 10 " + "clients",
                Transfer.SLUICE_STREAM.label(),
                Transfer.SLUICE_STREAM.baseline(),
                TIMES_TRANSFER_TO,
                ByteSizes.format(FROM_BYTES)));
        Verdict transferTo = transferTo(run, lines);
        lines.add("=> " + transferTo);
        lines.add(String.format(
                Locale.ROOT,
                "level with Resource: %s / %s MiB/s >= %.1f at every size, at 1 and 10 clients",
                Transfer.SLUICE_ZERO_COPY.label(),
                Transfer.SLUICE_ZERO_COPY.baseline(),
                LEVEL_WITH_RESOURCE));
        Verdict resource = resource(run, lines);
        lines.add("=> " + resource);
        lines.add(String.format(
                Locale.ROOT,
                "heap flat: sluice's server heap after a full GC at the largest size "
                        + "<= %.2fx at the smallest, each sluice transfer and client count",
                HEAP_GROWTH_AT_MOST));
        Verdict heap = heapFlat(run, lines);
        lines.add("=> " + heap);
        return String.join("\n", lines) + "\n";
    }

    /**
     * The transfer a gate judges: {@code plain} (sluice without sync, Spring's work) if the run
     * measured it, else {@code atomic}, the only one runs before plain uploads had.
     */
    private static Transfer likeForLike(SpringRun run, Transfer plain, Transfer atomic) {
        return measured(run, plain) ? plain : atomic;
    }

    private static boolean measured(SpringRun run, Transfer upload) {
        return run.uploads().stream().anyMatch(sample -> sample.transfer().equals(upload.label()));
    }

    /**
     * When the gate judges a plain transfer, its atomic one's ratio in the same cell, for
     * reference; nothing when the atomic one is judged.
     */
    private static String atomicBeside(SpringRun run, Transfer judged, Transfer atomic, long size, int clients) {
        return judged == atomic
                ? ""
                : String.format(
                        Locale.ROOT,
                        " (for reference, atomic with sync: %s / %s %s)",
                        atomic.label(),
                        atomic.baseline(),
                        ratio(run, atomic, size, clients).format());
    }

    private static Verdict multipart(SpringRun run, Transfer judged, List<String> lines) {
        List<Verdict> verdicts = new ArrayList<>();
        for (long size : SpringRun.sizes(run.uploads())) {
            for (int clients : GATE_CLIENTS) {
                Estimate ratio = ratio(run, judged, size, clients);
                Estimate cpu = SpringRun.ratioInTurns(
                        run.uploads(), judged.label(), judged.baseline(), size, clients, Sample::cpuSecondsPerGiB);
                Verdict speed = ratio.against(TIMES_MULTIPART, false);
                Verdict cheaper = cpu.against(1.0, true);
                Verdict verdict = both(speed, cheaper);
                verdicts.add(verdict);
                String judgedLine = verdict == Verdict.NOT_MEASURED
                        ? judged.label() + " not measured"
                        : String.format(
                                Locale.ROOT,
                                "%s: %s, CPU s/GiB sluice / Spring %s: %s => %s",
                                ratio.format(),
                                speed,
                                cpu.format(),
                                cheaper,
                                verdict);
                lines.add(String.format(
                        Locale.ROOT,
                        "  %s x%d: %s%s",
                        ByteSizes.format(size),
                        clients,
                        judgedLine,
                        atomicBeside(run, judged, Transfer.SLUICE_MULTIPART, size, clients)));
            }
        }
        return Verdict.every(verdicts);
    }

    private static Verdict raw(SpringRun run, Transfer judged, List<String> lines) {
        List<Long> sizes = sizesFromGateSize(run, lines);
        if (sizes.isEmpty()) {
            return Verdict.NOT_MEASURED;
        }
        List<Verdict> verdicts = new ArrayList<>();
        for (long size : sizes) {
            Estimate ratio = ratio(run, judged, size, 1);
            Verdict verdict = ratio.against(TIMES_RAW, false);
            verdicts.add(verdict);
            lines.add(String.format(
                    Locale.ROOT,
                    "  %s x1: %s%s",
                    ByteSizes.format(size),
                    verdict == Verdict.NOT_MEASURED
                            ? judged.label() + " not measured"
                            : ratio.format() + ": " + verdict,
                    atomicBeside(run, judged, Transfer.SLUICE_RAW, size, 1)));
        }
        return Verdict.every(verdicts);
    }

    /** The upload sizes from {@link #FROM_BYTES}; if there is none, a line saying so. */
    private static List<Long> sizesFromGateSize(SpringRun run, List<String> lines) {
        List<Long> sizes = SpringRun.sizes(run.uploads()).stream()
                .filter(size -> size >= FROM_BYTES)
                .toList();
        if (sizes.isEmpty()) {
            lines.add("  no size from " + ByteSizes.format(FROM_BYTES) + " in this run");
        }
        return sizes;
    }

    /** A cell judged on two criteria: met if both are, missed if either is, not measured if either is not. */
    private static Verdict both(Verdict first, Verdict second) {
        if (first == Verdict.NOT_MEASURED || second == Verdict.NOT_MEASURED) {
            return Verdict.NOT_MEASURED;
        }
        return Verdict.every(List.of(first, second));
    }

    private static Verdict transferTo(SpringRun run, List<String> lines) {
        List<Long> sizes = sizesFromGateSize(run, lines);
        if (sizes.isEmpty()) {
            return Verdict.NOT_MEASURED;
        }
        return everyCell(
                sizes,
                Transfer.SLUICE_STREAM,
                TIMES_TRANSFER_TO,
                (size, clients) -> ratio(run, Transfer.SLUICE_STREAM, size, clients),
                (size, clients) -> String.join(", ", reference(run, size, clients)),
                lines);
    }

    private static Verdict resource(SpringRun run, List<String> lines) {
        if (run.downloads().isEmpty()) {
            lines.add("  no download in this run");
            return Verdict.NOT_MEASURED;
        }
        return everyCell(
                SpringRun.sizes(run.downloads()),
                Transfer.SLUICE_ZERO_COPY,
                LEVEL_WITH_RESOURCE,
                (size, clients) -> downloadRatio(run, Transfer.SLUICE_ZERO_COPY, size, clients),
                (size, clients) -> Transfer.SLUICE_DOWNLOAD.label() + " / " + Transfer.SLUICE_DOWNLOAD.baseline() + " "
                        + downloadRatio(run, Transfer.SLUICE_DOWNLOAD, size, clients)
                                .format(),
                lines);
    }

    /**
     * Judges {@code judged}'s ratio against {@code times} at every size in {@code sizes} and at each
     * of {@link #GATE_CLIENTS}, a line per cell with its reference ratios; met only if every cell is.
     */
    private static Verdict everyCell(
            List<Long> sizes,
            Transfer judged,
            double times,
            BiFunction<Long, Integer, Estimate> ratio,
            BiFunction<Long, Integer, String> reference,
            List<String> lines) {
        List<Verdict> verdicts = new ArrayList<>();
        for (long size : sizes) {
            for (int clients : GATE_CLIENTS) {
                Estimate cell = ratio.apply(size, clients);
                Verdict verdict = cell.against(times, false);
                verdicts.add(verdict);
                String said = verdict == Verdict.NOT_MEASURED
                        ? judged.label() + " not measured"
                        : cell.format() + ": " + verdict;
                lines.add(String.format(
                        Locale.ROOT,
                        "  %s x%d: %s (for reference, %s)",
                        ByteSizes.format(size),
                        clients,
                        said,
                        reference.apply(size, clients)));
            }
        }
        return Verdict.every(verdicts);
    }

    private static Verdict heapFlat(SpringRun run, List<String> lines) {
        List<Verdict> verdicts = new ArrayList<>();
        for (List<Sample> samples : List.of(run.uploads(), run.downloads())) {
            List<Long> sizes = SpringRun.sizes(samples);
            if (sizes.size() < 2) {
                continue;
            }
            long smallest = sizes.get(0);
            long largest = sizes.get(sizes.size() - 1);
            for (String transfer : samples.stream()
                    .map(Sample::transfer)
                    .filter(name -> name.startsWith("sluice-"))
                    .distinct()
                    .sorted()
                    .toList()) {
                for (int clients : SpringRun.clients(samples)) {
                    Estimate growth = Estimate.ratioOfMeans(
                            SpringRun.values(samples, transfer, largest, clients, Sample::heapAfterGcBytes),
                            SpringRun.values(samples, transfer, smallest, clients, Sample::heapAfterGcBytes));
                    Verdict verdict = growth.against(HEAP_GROWTH_AT_MOST, true);
                    verdicts.add(verdict);
                    lines.add(String.format(
                            Locale.ROOT,
                            "  %s x%d, %s / %s: %s: %s",
                            transfer,
                            clients,
                            ByteSizes.format(largest),
                            ByteSizes.format(smallest),
                            growth.format(),
                            verdict));
                }
            }
        }
        if (verdicts.isEmpty()) {
            lines.add("  fewer than two sizes in this run");
            return Verdict.NOT_MEASURED;
        }
        return Verdict.every(verdicts);
    }

    /** {@code transfer}'s mean MiB/s over its baseline's in one upload cell. */
    private static Estimate ratio(SpringRun run, Transfer transfer, long size, int clients) {
        return SpringTables.ratio(run.uploads(), transfer.label(), transfer.baseline(), size, clients);
    }

    /** {@code transfer}'s mean MiB/s over its baseline's in one download cell. */
    private static Estimate downloadRatio(SpringRun run, Transfer transfer, long size, int clients) {
        return SpringTables.ratio(run.downloads(), transfer.label(), transfer.baseline(), size, clients);
    }

    /**
     * The 3x gate's reference ratios: sluice's other uploads over the gate's baseline (the plain
     * ones only where measured, so a run from before them reads as it did).
     */
    private static List<String> reference(SpringRun run, long size, int clients) {
        List<String> ratios = new ArrayList<>();
        List<Transfer> others = new ArrayList<>(List.of(Transfer.SLUICE_MULTIPART, Transfer.SLUICE_RAW));
        for (Transfer plain : List.of(Transfer.SLUICE_PLAIN_MULTIPART, Transfer.SLUICE_PLAIN_RAW)) {
            if (measured(run, plain)) {
                others.add(plain);
            }
        }
        for (Transfer transfer : others) {
            ratios.add(transfer.label() + " / " + Transfer.SLUICE_STREAM.baseline() + " "
                    + SpringTables.ratio(
                                    run.uploads(), transfer.label(), Transfer.SLUICE_STREAM.baseline(), size, clients)
                            .format());
        }
        return ratios;
    }
}
