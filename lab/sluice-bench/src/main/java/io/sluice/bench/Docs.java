package io.sluice.bench;

import io.sluice.bench.adaptive.AdaptiveTables;
import io.sluice.lab.Quietness;
import io.sluice.lab.ReportCommand;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The bench's {@code report} command (the lab's {@link ReportCommand}) and the generated blocks of
 * {@code docs/**.md} that name this bench: {@code report --from RUN [NAME]}, RUN a run folder (its
 * {@code samples.csv}) or one samples file relative to the repository root. NAME is one of {@code run} (commit,
 * JDK, profile and whether the machine was quiet), {@code compact}, {@code tables}, {@code targets} and
 * {@code checks}; for a folder of the adaptive scenarios, one of {@link AdaptiveTables#BLOCKS}; for a folder of
 * rounds of two jars, {@link BeforeAfter#BLOCK}, {@link BeforeAfter#SLUICE_BLOCK} and
 * {@link BeforeAfter#COMPACT_BLOCK}; for a folder naming runs to compare, {@link BetweenRuns#BLOCK}.
 */
final class Docs {

    static final String TOOL = "sluice-bench";

    private Docs() {}

    /** A profile's run: the report of its samples and its run line. */
    record SamplesRun(Report report, RunInfo info) implements ReportCommand.Run {

        static SamplesRun read(Path from) throws IOException {
            List<Sample> samples = samples(from);
            return new SamplesRun(new Report(samples), RunInfo.of(samples));
        }

        @Override
        public Quietness quietness() {
            return info.quietness();
        }

        /** Draws the run's charts as the run itself drew them (one profile), naming each file on {@code out}. */
        List<Path> charts(Path folder, PrintStream out) throws IOException {
            List<Path> files = BarChart.drawRun(report, folder, info.profiles().contains("+") ? "" : info.profiles());
            files.forEach(file -> out.println("chart: " + file));
            return files;
        }

        /** The run line, the tables, the compact table and the target checks. */
        void print(PrintStream out) {
            out.printf("%s%n%s%n%s%n%s%n", info.line(), report.markdown(), report.compact(), Targets.text(report));
        }
    }

    /**
     * A folder of the adaptive scenarios: its tables by block name. Its quietness comes from the load its scenario
     * runs recorded, not from the cells' guard, so {@code --from} rewrites its blocks either way and they say which.
     */
    record AdaptiveRun(Map<String, String> blocks, Quietness quietness) implements ReportCommand.Run {

        static AdaptiveRun read(Path folder) {
            return new AdaptiveRun(AdaptiveTables.blocks(folder), AdaptiveTables.quietness(folder));
        }

        void print(PrintStream out) {
            blocks.forEach((name, table) -> out.printf("%s%n%s%n", name, table));
        }
    }

    /** The report command on the repository at {@code root} (null outside one): an adaptive run, or else samples. */
    static ReportCommand command(Path root) {
        Map<String, Function<SamplesRun, String>> bodies = Map.of(
                "run", run -> run.info().line() + "\n",
                "compact", run -> "```\n" + run.report().compact() + "```\n",
                "tables", run -> run.report().markdown().strip() + "\n",
                "targets", run -> Targets.summary(run.report()),
                "checks", run -> "```\n" + Targets.text(run.report()) + "```\n");
        Map<String, Function<AdaptiveRun, String>> adaptiveBodies = new HashMap<>();
        for (String name : AdaptiveTables.BLOCKS) {
            adaptiveBodies.put(name, run -> run.blocks().get(name));
        }
        return new ReportCommand(
                TOOL,
                "java -jar lab/sluice-lab-cli/target/lab.jar bench report",
                root,
                List.of(
                        ReportCommand.Kind.of(
                                        AdaptiveTables::isRun, AdaptiveRun::read, adaptiveBodies, AdaptiveRun::print)
                                .rewrittenWhenNoisy(),
                        ReportCommand.Kind.of(
                                BeforeAfter::isRun,
                                BeforeAfter::read,
                                Map.of(
                                        BeforeAfter.BLOCK,
                                        BeforeAfter::table,
                                        BeforeAfter.SLUICE_BLOCK,
                                        BeforeAfter::sluiceTable,
                                        BeforeAfter.COMPACT_BLOCK,
                                        BeforeAfter::compact),
                                BeforeAfter::print),
                        ReportCommand.Kind.of(
                                BetweenRuns::isRun,
                                BetweenRuns::read,
                                Map.of(BetweenRuns.BLOCK, BetweenRuns::table),
                                BetweenRuns::print),
                        ReportCommand.Kind.of(from -> true, SamplesRun::read, bodies, SamplesRun::print)
                                .withCharts(SamplesRun::charts)
                                .readFrom(Docs::samplesFile)));
    }

    /** The samples file that {@code --from PATH} names: PATH itself, or PATH/samples.csv for a folder. */
    static Path samplesFile(Path from) {
        return Files.isDirectory(from) ? from.resolve("samples.csv") : from;
    }

    static List<Sample> samples(Path from) throws IOException {
        Path file = samplesFile(from);
        if (!Files.isRegularFile(file)) {
            throw new IOException("no samples at " + file);
        }
        return Sample.read(file);
    }
}
