package io.sluice.lab;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The {@code report} command every lab tool offers on its own runs, in one place:
 * <ul>
 *   <li>{@code --from RUN [--allow-noisy]} prints the run's report, computed again from its raw
 *       results, and rewrites the blocks that quote that run; a run that broke the quiet rule
 *       rewrites nothing unless {@code --allow-noisy} is given;</li>
 *   <li>{@code --check} fails while any block of the repository's pages differs from what its data
 *       generates (each tool's tests run it);</li>
 *   <li>{@code --all} rewrites every block from the run it names.</li>
 * </ul>
 * A tool gives its name, how to read one of its runs, and a body for each block name; each run is
 * read once per command. A block quoting a run that was not quiet starts with
 * {@link GeneratedBlocks#NOT_QUIET} on every path (see {@link GeneratedBlocks}).
 *
 * @param <R> the tool's run, as read from its results folder
 */
public final class ReportCommand<R extends ReportCommand.Run> {

    /** A results folder as a tool reads it: what its blocks need to know of the machine it ran on. */
    public interface Run {
        /** Whether every measurement of the run kept the quiet rule. */
        boolean quiet();

        /** The machine's load during the run, in words: what broke the quiet rule if it was broken. */
        String machine();
    }

    /** Reads one of the tool's runs from its folder. */
    @FunctionalInterface
    public interface Reader<R> {
        R read(Path folder) throws IOException;
    }

    private final String tool;                         // the name blocks carry: sluice-s3-load...
    private final String usage;                        // how the tool's users run this command
    private final Path root;                           // the repository
    private final Reader<R> reader;
    private final Function<R, String> printout;        // what --from prints
    private final Map<Path, R> runs = new HashMap<>(); // by absolute folder: each is read once
    private final GeneratedBlocks blocks;

    /**
     * @param tool     the tool's name in block markers
     * @param usage    the command's name as users type it, for messages ({@code S3Report})
     * @param root     the repository
     * @param reader   reads a run from its folder
     * @param bodies   a block's body from its run, by block name
     * @param printout what {@code --from} prints of a run
     */
    public ReportCommand(String tool, String usage, Path root, Reader<R> reader, Map<String, Function<R, String>> bodies,
                         Function<R, String> printout) {
        this.tool = tool;
        this.usage = usage;
        this.root = root;
        this.reader = reader;
        this.printout = printout;
        Map<String, GeneratedBlocks.Renderer> renderers = new HashMap<>();
        bodies.forEach((name, body) -> renderers.put(name, block -> body.apply(run(block.reportFrom(root)))));
        this.blocks = new GeneratedBlocks(tool, renderers, block -> {
            R run = run(block.reportFrom(root));
            return run.quiet() ? Optional.empty() : Optional.of(run.machine());
        });
    }

    /** The repository that holds the working directory, for a tool's {@code main}. */
    public static Path repository() {
        return GeneratedBlocks.repositoryRoot(Path.of("")).orElseThrow(() -> new IllegalStateException(
                "run it inside the repository: no folder with .mvn/ above " + Path.of("").toAbsolutePath()));
    }

    /** The blocks of the repository's pages that differ from what their runs generate. */
    public List<GeneratedBlocks.Block> differing() throws IOException {
        return blocks.differingUnder(root);
    }

    /**
     * Runs the command.
     *
     * @return the exit status: 0, or 1 for a differing block or a noisy run not rewritten
     * @throws IllegalArgumentException for arguments that are none of the three forms
     */
    public int run(List<String> args, PrintStream out) throws IOException {
        if (args.equals(List.of("--check"))) {
            List<GeneratedBlocks.Block> differing = differing();
            differing.forEach(block -> out.println(block.where() + " differs from what `" + tool + " "
                    + block.arguments() + "` generates"));
            out.println(differing.isEmpty() ? "every " + tool + " block matches its data"
                    : "regenerate with: " + usage + " --from RUN, or lab/results/regenerate.sh");
            return differing.isEmpty() ? 0 : 1;
        }
        if (args.equals(List.of("--all"))) {
            List<GeneratedBlocks.Block> changed = blocks.rewriteUnder(root, block -> true);
            changed.forEach(block -> out.println("rewrote " + block.where()));
            out.println(changed.size() + " docs block(s) rewritten, each from the run it names");
            return 0;
        }
        boolean allowNoisy = args.contains("--allow-noisy");
        List<String> rest = args.stream().filter(arg -> !arg.equals("--allow-noisy")).toList();
        if (rest.size() != 2 || !rest.get(0).equals("--from")) {
            throw new IllegalArgumentException("usage: " + usage + " --from RUN [--allow-noisy] | --check | --all (was: "
                    + String.join(" ", args) + ")");
        }
        Path from = Path.of(rest.get(1));
        R run = run(from);
        out.print(printout.apply(run));
        if (!run.quiet() && !allowNoisy) {
            out.println("not rewriting the docs' blocks: the run was not quiet; pass --allow-noisy to write them anyway");
            return 1;
        }
        Path wanted = from.toAbsolutePath().normalize();
        List<GeneratedBlocks.Block> changed = blocks.rewriteUnder(root,
                block -> block.reportFrom(root).toAbsolutePath().normalize().equals(wanted));
        changed.forEach(block -> out.println("rewrote " + block.where()));
        out.println(changed.size() + " docs block(s) rewritten from " + from);
        return 0;
    }

    private R run(Path folder) {
        return runs.computeIfAbsent(folder.toAbsolutePath().normalize(), path -> {
            try {
                return reader.read(path);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }
}
