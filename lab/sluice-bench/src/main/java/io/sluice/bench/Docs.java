package io.sluice.bench;

import io.sluice.bench.adaptive.AdaptiveTables;
import io.sluice.lab.GeneratedBlocks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@link GeneratedBlocks} of {@code docs/**.md} that name this bench: {@code report --from RUN
 * [NAME]}, RUN a run folder (its {@code samples.csv}) or one samples file relative to the repository
 * root. NAME is one of {@code run} (commit, JDK, profile and whether the machine was quiet),
 * {@code compact}, {@code tables}, {@code targets} and {@code checks}; for a folder of the adaptive
 * scenarios, one of {@link AdaptiveTables#BLOCKS}.
 */
final class Docs {

    static final String TOOL = "sluice-bench";

    private final Path root;
    private final Map<Path, Report> reports = new HashMap<>(); // by absolute samples path: each is read once
    private final Map<Path, RunInfo> runs = new HashMap<>();    // the same, for the run line and its quietness
    private final GeneratedBlocks blocks;

    Docs(Path root) {
        this.root = root;
        Map<String, GeneratedBlocks.Renderer> renderers = new HashMap<>(Map.of(
                "run", block -> runInfo(block).line() + "\n",
                "compact", block -> "```\n" + report(block).compact() + "```\n",
                "tables", block -> report(block).markdown().strip() + "\n",
                "targets", block -> Targets.summary(report(block)),
                "checks", block -> "```\n" + Targets.text(report(block)) + "```\n"));
        for (String name : AdaptiveTables.BLOCKS) {
            renderers.put(name, block -> AdaptiveTables.blocks(from(block)).get(name));
        }
        this.blocks = new GeneratedBlocks(TOOL, renderers, this::quietness);
    }

    /** Empty if the run {@code block} quotes was measured on a quiet machine; otherwise why it cannot be called quiet. */
    private Optional<String> quietness(GeneratedBlocks.Block block) throws IOException {
        if (AdaptiveTables.BLOCKS.contains(block.name())) {
            return AdaptiveTables.quietness(from(block));
        }
        RunInfo run = runInfo(block);
        return run.quiet() ? Optional.empty() : Optional.of("machine " + run.quietness());
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

    private Path from(GeneratedBlocks.Block block) {
        return block.reportFrom(root);
    }

    private RunInfo runInfo(GeneratedBlocks.Block block) {
        return runs.computeIfAbsent(samplesFile(from(block)).toAbsolutePath(), path -> {
            try {
                return RunInfo.of(samples(path));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private Report report(GeneratedBlocks.Block block) {
        Path file = samplesFile(from(block)).toAbsolutePath();
        return reports.computeIfAbsent(file, path -> {
            try {
                return new Report(samples(path));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** Every block of every page whose body differs from what its data generates now. */
    List<GeneratedBlocks.Block> differing() throws IOException {
        return blocks.differingUnder(root);
    }

    /** Rewrites the blocks generated from {@code from} (every block if null); returns those that changed. */
    List<GeneratedBlocks.Block> rewrite(Path from) throws IOException {
        Path file = from == null ? null : samplesFile(from).toAbsolutePath().normalize();
        return blocks.rewriteUnder(root,
                block -> file == null || samplesFile(from(block)).toAbsolutePath().normalize().equals(file));
    }
}
