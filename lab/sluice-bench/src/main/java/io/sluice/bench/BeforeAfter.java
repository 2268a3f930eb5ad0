package io.sluice.bench;

import io.sluice.lab.Estimate;
import io.sluice.lab.Quietness;
import io.sluice.lab.ReportCommand;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * One profile run by two jars in alternating rounds, to tell whether a change moved any figure: a results folder
 * of {@code before-1}, {@code after-1}, {@code before-2}, ... each an ordinary run folder. Each provider's speed
 * after over before is pooled over the rounds, with its interval, and the round-by-round ratios stand beside it,
 * so the spread between rounds shows too. sluice's rows are judged; the peers' and loops' rows are the same code
 * in both jars and show how far the machine itself moved.
 *
 * @param before the before rounds, in order
 * @param after the after rounds, paired with {@code before} by position
 * @param infos each round's run line, before-1, after-1, before-2, ...
 */
record BeforeAfter(List<Report> before, List<Report> after, List<RunInfo> infos) implements ReportCommand.Run {

    static final String BLOCK = "before-after";
    static final String SLUICE_BLOCK = "before-after-sluice";
    static final String COMPACT_BLOCK = "before-after-compact";

    /** Whether {@code folder} holds the first round of each side. */
    static boolean isRun(Path folder) {
        return Files.isRegularFile(Docs.samplesFile(folder.resolve("before-1")))
                && Files.isRegularFile(Docs.samplesFile(folder.resolve("after-1")));
    }

    /** The rounds of {@code folder}, {@code before-N} with {@code after-N} for N = 1, 2, ... while both are there. */
    static BeforeAfter read(Path folder) throws IOException {
        List<Report> before = new ArrayList<>();
        List<Report> after = new ArrayList<>();
        List<RunInfo> infos = new ArrayList<>();
        for (int round = 1; Files.isDirectory(folder.resolve("before-" + round)); round++) {
            Path pair = folder.resolve("after-" + round);
            if (!Files.isDirectory(pair)) {
                throw new IOException("before-" + round + " has no after-" + round + " in " + folder);
            }
            List<Sample> first = Docs.samples(folder.resolve("before-" + round));
            List<Sample> second = Docs.samples(pair);
            before.add(new Report(first));
            after.add(new Report(second));
            infos.add(RunInfo.of(first));
            infos.add(RunInfo.of(second));
        }
        return new BeforeAfter(before, after, infos);
    }

    /** The rounds' quiet rule together: every cell of every round counts once. */
    @Override
    public Quietness quietness() {
        return Quietness.together("cell", infos.stream().map(RunInfo::quietness).toList());
    }

    /** What a side's rounds were measured with: its commits and JDKs. */
    private String side(int parity) {
        List<RunInfo> side = new ArrayList<>();
        for (int i = parity; i < infos.size(); i += 2) {
            side.add(infos.get(i));
        }
        return "commit " + distinct(side.stream().map(RunInfo::commits).toList()) + ", JDK "
                + distinct(side.stream().map(RunInfo::jdks).toList());
    }

    private static String distinct(List<String> values) {
        return values.stream().distinct().collect(Collectors.joining("+"));
    }

    /** Every round of one side as one report: their samples pooled. */
    private static Report pooled(List<Report> rounds) {
        return new Report(rounds.stream()
                .flatMap(report -> report.rowsByCell().values().stream())
                .flatMap(List::stream)
                .flatMap(row -> row.samples().stream())
                .toList());
    }

    /** Every provider's rows: sluice's, judged, and the controls. */
    String table() {
        return table(true);
    }

    /** sluice's rows alone, judged. */
    String sluiceTable() {
        return table(false);
    }

    /**
     * A row per cell and provider that both sides measured, sluice's first (the controls only if {@code controls}):
     * speed before and after, after over before with its interval, each round's ratio, CPU and heap allocated
     * per GiB before and after, and for sluice's rows the verdict (on speed); then a count of the verdicts.
     */
    private String table(boolean controls) {
        Report first = pooled(before);
        Report second = pooled(after);
        StringBuilder md = new StringBuilder(String.format(
                Locale.ROOT,
                "Before: %s; after: %s; %d rounds each, alternating, before first.%n%n",
                side(0),
                side(1),
                before.size()));
        md.append("| cell | provider | MiB/s before | MiB/s after | after / before (95% interval) "
                        + "| each round | CPU s/GiB before | CPU s/GiB after | heap MiB/GiB before "
                        + "| heap MiB/GiB after | verdict |\n")
                .append("|---|---|---:|---:|---:|---|---:|---:|---:|---:|---|\n");
        int unchanged = 0;
        int faster = 0;
        int slower = 0;
        int judged = 0;
        for (Cell cell : second.rowsByCell().keySet()) {
            List<Row> rows = second.rowsByCell().get(cell).stream()
                    .filter(row -> first.row(cell, row.provider()).isPresent())
                    .filter(row -> controls || isSluice(row.provider()))
                    .sorted(Comparator.comparing((Row row) -> !isSluice(row.provider()))
                            .thenComparing(Row::provider))
                    .toList();
            for (Row now : rows) {
                Row then = first.row(cell, now.provider()).orElseThrow();
                Estimate ratio = speedOverBefore(then, now);
                String verdict;
                if (!isSluice(now.provider())) {
                    verdict = "control";
                } else if (Double.isNaN(ratio.value())) {
                    verdict = "failed";
                    judged++;
                } else {
                    judged++;
                    if (ratio.low() > 1) {
                        verdict = "faster";
                        faster++;
                    } else if (ratio.high() < 1) {
                        verdict = "**slower**";
                        slower++;
                    } else {
                        verdict = "unchanged";
                        unchanged++;
                    }
                }
                md.append(String.format(
                        Locale.ROOT,
                        "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
                        cell.label(),
                        now.provider(),
                        speed(then),
                        speed(now),
                        ratio.format(),
                        eachRound(cell, now.provider()),
                        cpu(then),
                        cpu(now),
                        heap(then),
                        heap(now),
                        verdict));
            }
        }
        md.append(String.format(
                Locale.ROOT,
                "%nsluice's %d rows: %d unchanged (the interval holds 1), %d faster, %d slower.%n",
                judged,
                unchanged,
                faster,
                slower));
        return md.toString();
    }

    /** The compact table of each side, its rounds pooled, as the profile prints it. */
    String compact() {
        return "Before (" + side(0) + "):\n\n```\n" + pooled(before).compact() + "```\n\nAfter (" + side(1)
                + "):\n\n```\n" + pooled(after).compact() + "```\n";
    }

    void print(PrintStream out) {
        out.printf("%s%n%s", table(), compact());
    }

    private static boolean isSluice(String provider) {
        return provider.startsWith("sluice");
    }

    /** After's speed over before's: the ratio of before's mean time per invocation to after's. */
    private static Estimate speedOverBefore(Row then, Row now) {
        if (!then.ok() || !now.ok()) {
            return Estimate.NONE;
        }
        return Estimate.ratioOfMeans(then.each(Sample::nanos), now.each(Sample::nanos));
    }

    private String eachRound(Cell cell, String provider) {
        List<String> ratios = new ArrayList<>();
        for (int round = 0; round < before.size(); round++) {
            Optional<Row> then = before.get(round).row(cell, provider);
            Optional<Row> now = after.get(round).row(cell, provider);
            ratios.add(
                    then.isPresent()
                                    && now.isPresent()
                                    && then.get().ok()
                                    && now.get().ok()
                            ? String.format(
                                    Locale.ROOT,
                                    "%.2f",
                                    now.get().mibPerSecond() / then.get().mibPerSecond())
                            : "-");
        }
        return String.join(", ", ratios);
    }

    private static String speed(Row row) {
        return row.ok() ? String.format(Locale.ROOT, "%.0f", row.mibPerSecond()) : "FAILED";
    }

    /** Heap allocated per GiB moved, whole MiB: the garbage an operation leaves, which a change may move alone. */
    private static String heap(Row row) {
        return row.ok() ? String.format(Locale.ROOT, "%.0f", row.allocatedMiBPerGiB()) : "-";
    }

    private static String cpu(Row row) {
        return row.ok() ? String.format(Locale.ROOT, "%.2f", row.cpuSecondsPerGiB()) : "-";
    }
}
