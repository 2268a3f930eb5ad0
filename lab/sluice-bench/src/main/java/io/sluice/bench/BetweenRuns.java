package io.sluice.bench;

import io.sluice.lab.Estimate;
import io.sluice.lab.Quietness;
import io.sluice.lab.ReportCommand;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The same targets measured in several runs, side by side, to show how far a figure moves from
 * one run to the next when nothing but the day changed: the spread an interval inside one run
 * does not hold. A results folder with a {@value #RUNS_FILE} names the runs, one folder per line
 * (relative to that file, {@code #} starts a comment), oldest first; each is an ordinary run
 * folder. Only the targets stated now (not those kept beside a restatement) in the cells every
 * listed run measured are compared.
 *
 * <p>Each row also gives the target's verdict over the runs: met only if every run met it, missed
 * only if every run missed it, otherwise inconclusive. A verdict over runs on different days
 * stands only if the spread between days does not move it; pooling the days' samples would need
 * more days than a few to resample whole days, and a margin added to the bar would be a guess.
 *
 * @param names each run's folder as its line names it
 * @param runs each run's report, in the same order
 * @param infos each run's run line
 */
record BetweenRuns(List<String> names, List<Report> runs, List<RunInfo> infos) implements ReportCommand.Run {

    static final String RUNS_FILE = "runs.txt";
    static final String BLOCK = "between-runs";

    /** Whether {@code folder} names runs to compare. */
    static boolean isRun(Path folder) {
        return Files.isRegularFile(folder.resolve(RUNS_FILE));
    }

    static BetweenRuns read(Path folder) throws IOException {
        List<String> names = new ArrayList<>();
        List<Report> runs = new ArrayList<>();
        List<RunInfo> infos = new ArrayList<>();
        for (String line : Files.readAllLines(folder.resolve(RUNS_FILE))) {
            String name = line.replaceFirst("#.*", "").strip();
            if (name.isEmpty()) {
                continue;
            }
            List<Sample> samples = Docs.samples(folder.resolve(name));
            names.add(name);
            runs.add(new Report(samples));
            infos.add(RunInfo.of(samples));
        }
        if (runs.size() < 2) {
            throw new IOException(
                    folder.resolve(RUNS_FILE) + " names " + runs.size() + " run(s); a comparison needs two");
        }
        return new BetweenRuns(names, runs, infos);
    }

    /** Every run's quiet rule together: each cell of each run counts once. */
    @Override
    public Quietness quietness() {
        return Quietness.together("cell", infos.stream().map(RunInfo::quietness).toList());
    }

    /** One target in one cell, with what each run measured. */
    private record Compared(String goal, Cell cell, List<Targets.Check> checks) {

        /** The largest value over the smallest, less one: how far the figure moved between the runs. */
        double moved() {
            double[] values = checks.stream()
                    .mapToDouble(check -> check.measured().value())
                    .toArray();
            return Arrays.stream(values).max().orElseThrow()
                            / Arrays.stream(values).min().orElseThrow()
                    - 1;
        }

        boolean verdictsAgree() {
            return checks.stream().map(Targets.Check::verdict).distinct().count() == 1;
        }

        /** Met or missed if every run says so; otherwise inconclusive. */
        Estimate.Verdict overTheRuns() {
            return verdictsAgree() ? checks.get(0).verdict() : Estimate.Verdict.INCONCLUSIVE;
        }
    }

    /** The targets measured in every run, cell by cell, in the first run's order. */
    private List<Compared> compared() {
        List<? extends Map<String, Targets.Check>> byKey = runs.stream()
                .map(run -> Targets.evaluate(run).stream()
                        .filter(check -> check.note().isEmpty())
                        .filter(check -> check.verdict() != Estimate.Verdict.NOT_MEASURED)
                        .collect(Collectors.toMap(
                                check -> check.goal() + "|" + check.cell().spec(),
                                check -> check,
                                (first, second) -> first,
                                LinkedHashMap::new)))
                .toList();
        List<Compared> compared = new ArrayList<>();
        for (Map.Entry<String, Targets.Check> entry : byKey.get(0).entrySet()) {
            List<Targets.Check> checks =
                    byKey.stream().map(run -> run.get(entry.getKey())).toList();
            if (checks.stream().allMatch(Objects::nonNull)) {
                Targets.Check first = entry.getValue();
                compared.add(new Compared(first.goal(), first.cell(), checks));
            }
        }
        return compared;
    }

    /**
     * The runs, then a row per target and cell: each run's figure with its interval and verdict, how
     * far the figure moved between the runs and the verdict over the runs; then how many verdicts
     * agree, how far the figures moved (median and largest) and the verdicts over the runs.
     */
    String table() {
        StringBuilder md = new StringBuilder();
        for (int i = 0; i < runs.size(); i++) {
            md.append(String.format(
                    Locale.ROOT,
                    "- run %d: `%s`: %s%n",
                    i + 1,
                    names.get(i),
                    infos.get(i).line()));
        }
        md.append("\n| target | cell |");
        for (int i = 0; i < runs.size(); i++) {
            md.append(" run ").append(i + 1).append(" |");
        }
        md.append(" moved | over the runs |\n|---|---|");
        md.append("---|".repeat(runs.size())).append("---:|---|\n");
        List<Compared> compared = compared();
        for (Compared row : compared) {
            md.append("| ")
                    .append(row.goal())
                    .append(" | ")
                    .append(row.cell().label())
                    .append(" |");
            for (Targets.Check check : row.checks()) {
                md.append(' ')
                        .append(check.measured().format())
                        .append(' ')
                        .append(check.verdict())
                        .append(" |");
            }
            md.append(String.format(Locale.ROOT, " %.0f%% | %s |%n", 100 * row.moved(), row.overTheRuns()));
        }
        double[] moved = compared.stream().mapToDouble(Compared::moved).sorted().toArray();
        long agree = compared.stream().filter(Compared::verdictsAgree).count();
        md.append(String.format(
                Locale.ROOT,
                "%nVerdicts the same in every run: %d of %d target cells. Largest figure over smallest: "
                        + "median %.0f%% apart, largest %.0f%%.%n",
                agree,
                compared.size(),
                moved.length == 0 ? 0 : 100 * median(moved),
                moved.length == 0 ? 0 : 100 * moved[moved.length - 1]));
        md.append(String.format(
                Locale.ROOT,
                "Over the runs: met in %d, missed in %d, inconclusive in %d of %d.%n",
                count(compared, Estimate.Verdict.MET),
                count(compared, Estimate.Verdict.MISSED),
                count(compared, Estimate.Verdict.INCONCLUSIVE),
                compared.size()));
        return md.toString();
    }

    private static long count(List<Compared> compared, Estimate.Verdict verdict) {
        return compared.stream().filter(row -> row.overTheRuns() == verdict).count();
    }

    private static double median(double[] sorted) {
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    void print(PrintStream out) {
        out.print(table());
    }
}
