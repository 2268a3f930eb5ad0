package io.sluice.lab;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * The {@code report} command every lab tool offers on its own runs, in one place:
 * <ul>
 *   <li>{@code --from RUN [--charts DIR] [--allow-noisy]} prints the run's report, computed again from its raw
 *       results (and draws its charts into DIR, for a tool whose runs have charts), and rewrites the blocks that
 *       quote that run; a run that broke the quiet rule rewrites nothing unless {@code --allow-noisy} is given;</li>
 *   <li>{@code --check} fails while any block of the repository's pages differs from what its data
 *       generates, or any chart the tool drew from a run ({@link ChartData}) from what it draws from that run
 *       now (each tool's tests run it);</li>
 *   <li>{@code --all} rewrites every block from the run it names, and draws again every chart the tool drew
 *       from a run.</li>
 * </ul>
 * A tool gives its name and one {@link Kind} for each kind of run it writes: how to tell and read one, a body
 * for each block name, and what {@code --from} prints; each run is read once per command. A block quoting a run
 * that was not quiet starts with {@link GeneratedBlocks#NOT_QUIET} on every path (see {@link GeneratedBlocks}).
 */
public final class ReportCommand {

    /** A results folder as a tool reads it: what its blocks need to know of the machine it ran on. */
    public interface Run {
        /** The quiet rule over the run's measurements: whether they kept it, and in the words a block says so. */
        Quietness quietness();
    }

    /** Reads one of the tool's runs from its folder. */
    @FunctionalInterface
    public interface Reader<R> {
        R read(Path folder) throws IOException;
    }

    /** What {@code --from} prints of a run, or draws of it into a folder. */
    @FunctionalInterface
    public interface Output<R> {
        void write(R run, PrintStream out) throws IOException;
    }

    /** Draws a run's charts into a folder, naming each file it writes on {@code out}; returns the PNGs. */
    @FunctionalInterface
    public interface Charts<R> {
        List<Path> draw(R run, Path folder, PrintStream out) throws IOException;
    }

    /**
     * One kind of run a tool writes: which folders hold one, how to read it, its blocks by name (no two kinds of
     * a tool share a block name), what {@code --from} prints and, optionally, its charts and the file a run is
     * read from.
     *
     * @param <R> the run, as read from its folder
     */
    public static final class Kind<R extends Run> {

        private final Predicate<Path> holds;
        private final Reader<R> reader;
        private final Map<String, Function<R, String>> bodies;
        private final Output<R> printout;
        private final Charts<R> charts; // null: the kind has none
        private final UnaryOperator<Path> source; // the path a run is read from, for a path that names it
        private final boolean rewrittenWhenNoisy;
        private final Map<Path, R> runs = new HashMap<>(); // by absolute source: each is read once

        private Kind(
                Predicate<Path> holds,
                Reader<R> reader,
                Map<String, Function<R, String>> bodies,
                Output<R> printout,
                Charts<R> charts,
                UnaryOperator<Path> source,
                boolean rewrittenWhenNoisy) {
            this.holds = holds;
            this.reader = reader;
            this.bodies = Map.copyOf(bodies);
            this.printout = printout;
            this.charts = charts;
            this.source = source;
            this.rewrittenWhenNoisy = rewrittenWhenNoisy;
        }

        /** A kind of run held by every folder {@code holds} accepts. */
        public static <R extends Run> Kind<R> of(
                Predicate<Path> holds, Reader<R> reader, Map<String, Function<R, String>> bodies, Output<R> printout) {
            return new Kind<>(holds, reader, bodies, printout, null, UnaryOperator.identity(), false);
        }

        /** This kind, whose runs also draw {@code charts} under {@code --charts DIR}. */
        public Kind<R> withCharts(Charts<R> drawn) {
            return new Kind<>(holds, reader, bodies, printout, drawn, source, rewrittenWhenNoisy);
        }

        /**
         * This kind, whose run is read from {@code file} of the path that names it (such as a folder's samples file),
         * so that a folder and its file name the same run.
         */
        public Kind<R> readFrom(UnaryOperator<Path> file) {
            return new Kind<>(holds, reader, bodies, printout, charts, file, rewrittenWhenNoisy);
        }

        /**
         * This kind, whose {@code --from} rewrites its blocks even from a run that broke the quiet rule, without
         * {@code --allow-noisy}: for runs whose quietness is a judgement of their own, which their blocks state.
         */
        public Kind<R> rewrittenWhenNoisy() {
            return new Kind<>(holds, reader, bodies, printout, charts, source, true);
        }

        /** What {@code path} names: the absolute path the run is read from. */
        private Path key(Path path) {
            return source.apply(path).toAbsolutePath().normalize();
        }

        private R run(Path folder) {
            return runs.computeIfAbsent(key(folder), path -> {
                try {
                    return reader.read(path);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }

        /** Prints the run at {@code folder}. */
        private void print(Path folder, PrintStream out) throws IOException {
            printout.write(run(folder), out);
        }

        /** Draws the charts of the run at {@code folder} into {@code chartsFolder}; returns the PNGs, none for a kind without charts. */
        private List<Path> draw(Path folder, Path chartsFolder, PrintStream out) throws IOException {
            return charts == null ? List.of() : charts.draw(run(folder), chartsFolder, out);
        }

        /** Whether the blocks of the run at {@code folder} may be rewritten without {@code --allow-noisy}. */
        private boolean rewritable(Path folder) {
            return run(folder).quietness().quiet() || rewrittenWhenNoisy;
        }
    }

    private final String tool; // the name blocks carry: sluice-s3-load...
    private final String usage; // how the tool's users run this command
    private final Path root; // the repository
    private final List<Kind<?>> kinds;
    private final Map<String, Kind<?>> kindByBlock = new HashMap<>();
    private final GeneratedBlocks blocks;

    /**
     * @param tool  the tool's name in block markers
     * @param usage the command's name as users type it, for messages ({@code java -jar lab/sluice-lab-cli/target/lab.jar s3 report})
     * @param root  the repository, or null outside one: then {@code --from} prints and rewrites nothing, and the
     *              other forms fail
     * @param kinds the kinds of run the tool writes; {@code --from} reads a folder as the first that holds it
     */
    public ReportCommand(String tool, String usage, Path root, List<Kind<?>> kinds) {
        this.tool = tool;
        this.usage = usage;
        this.root = root;
        this.kinds = List.copyOf(kinds);
        Map<String, GeneratedBlocks.Renderer> renderers = new HashMap<>();
        for (Kind<?> kind : kinds) {
            addRenderers(kind, renderers);
            kind.bodies.keySet().forEach(name -> kindByBlock.put(name, kind));
        }
        this.blocks = new GeneratedBlocks(tool, renderers, block -> {
            Run run = kindByBlock.get(block.name()).run(block.reportFrom(root));
            Quietness quietness = run.quietness();
            return quietness.quiet() ? Optional.empty() : Optional.of(quietness.inWords());
        });
    }

    /**
     * A tool with one kind of run, whose {@code --from} prints {@code printout}.
     *
     * @param tool     the tool's name in block markers
     * @param usage    the command's name as users type it, for messages ({@code java -jar lab/sluice-lab-cli/target/lab.jar s3 report})
     * @param root     the repository
     * @param reader   reads a run from its folder
     * @param bodies   a block's body from its run, by block name
     * @param printout what {@code --from} prints of a run
     */
    public static <R extends Run> ReportCommand of(
            String tool,
            String usage,
            Path root,
            Reader<R> reader,
            Map<String, Function<R, String>> bodies,
            Function<R, String> printout) {
        return new ReportCommand(
                tool,
                usage,
                root,
                List.of(Kind.of(folder -> true, reader, bodies, (run, out) -> out.print(printout.apply(run)))));
    }

    private <R extends Run> void addRenderers(Kind<R> kind, Map<String, GeneratedBlocks.Renderer> renderers) {
        kind.bodies.forEach((name, body) -> renderers.put(name, block -> body.apply(kind.run(block.reportFrom(root)))));
    }

    /** The repository that holds the working directory, for a tool's {@code main}. */
    public static Path repository() {
        return GeneratedBlocks.repositoryRoot(Path.of(""))
                .orElseThrow(() -> new IllegalStateException("run it inside the repository: no folder with .mvn/ above "
                        + Path.of("").toAbsolutePath()));
    }

    /** The blocks of the repository's pages that differ from what their runs generate. */
    public List<GeneratedBlocks.Block> differing() throws IOException {
        return blocks.differingUnder(repositoryRoot());
    }

    /**
     * The charts under the repository that this tool drew from a run ({@link ChartData#drawnBy}) whose data
     * differ from what the tool draws from that run now, that it no longer draws, or whose run is gone, in words.
     */
    public List<String> chartsDiffering() throws IOException {
        List<String> differing = new ArrayList<>();
        for (Map.Entry<String, List<Path>> run : chartsByRun().entrySet()) {
            Path from = root.resolve(run.getKey()).normalize();
            if (!Files.exists(from)) {
                run.getValue()
                        .forEach(data -> differing.add(
                                relative(data) + ": drawn from " + run.getKey() + ", which is not in the repository"));
                continue;
            }
            drawnAgain(from, drawn -> {
                for (Path data : run.getValue()) {
                    Path again = drawn.resolve(data.getFileName());
                    if (!Files.isRegularFile(again)) {
                        differing.add(relative(data) + ": " + tool + " draws no such chart from " + run.getKey());
                    } else if (!ChartData.shown(again).equals(ChartData.shown(data))) {
                        differing.add(relative(data) + " differs from what `" + tool + " report --from " + run.getKey()
                                + " --charts " + relative(data.getParent()) + "` draws");
                    }
                }
            });
        }
        return differing;
    }

    /** The data files of the charts this tool drew from a run, by that run as they name it. */
    private Map<String, List<Path>> chartsByRun() throws IOException {
        Map<String, List<Path>> byRun = new TreeMap<>();
        String prefix = tool + " from ";
        for (Path data : ChartData.dataFiles(repositoryRoot())) {
            Optional<String> drawnBy = ChartData.drawnBy(data);
            if (drawnBy.isPresent() && drawnBy.get().startsWith(prefix)) {
                byRun.computeIfAbsent(drawnBy.get().substring(prefix.length()), run -> new ArrayList<>())
                        .add(data);
            }
        }
        return byRun;
    }

    /**
     * Draws again every chart this tool drew from a run whose data differ from what the run draws now: in
     * place, the chart and its data file, stamped. Only those charts: a folder that holds charts of several
     * runs, or keeps some of a run's charts only, stays as it is; a chart whose data have not moved keeps its
     * PNG (rendered with the fonts of the machine that drew it). Returns the PNGs drawn again.
     */
    public List<Path> redrawCharts() throws IOException {
        List<Path> redrawn = new ArrayList<>();
        for (Map.Entry<String, List<Path>> run : chartsByRun().entrySet()) {
            Path from = root.resolve(run.getKey()).normalize();
            if (!Files.exists(from)) {
                continue; // chartsDiffering names it
            }
            drawnAgain(from, drawn -> {
                for (Path data : run.getValue()) {
                    Path againData = drawn.resolve(data.getFileName());
                    if (Files.isRegularFile(againData)
                            && !ChartData.shown(againData).equals(ChartData.shown(data))) {
                        String pngName = data.getFileName().toString();
                        pngName = pngName.substring(0, pngName.length() - ChartData.SUFFIX.length());
                        Path png = data.resolveSibling(pngName);
                        Files.copy(drawn.resolve(pngName), png, StandardCopyOption.REPLACE_EXISTING);
                        Files.copy(againData, data, StandardCopyOption.REPLACE_EXISTING);
                        ChartData.stamp(png, tool, run.getKey());
                        redrawn.add(png);
                    }
                }
            });
        }
        return redrawn;
    }

    /** What is done with a folder of charts drawn again. */
    @FunctionalInterface
    private interface DrawnCharts {
        void use(Path folder) throws IOException;
    }

    /** Draws the charts of the run at {@code from} into a temporary folder, hands it to {@code use}, then deletes it. */
    private void drawnAgain(Path from, DrawnCharts use) throws IOException {
        PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8);
        Path drawn = Files.createTempDirectory("charts-again");
        try {
            kindHolding(from).draw(from, drawn, nowhere);
            use.use(drawn);
        } finally {
            FileTrees.delete(drawn);
        }
    }

    /** Rewrites the blocks that quote the run at {@code from}, or every block if null; returns those that changed. */
    public List<GeneratedBlocks.Block> rewrite(Path from) throws IOException {
        Path wanted = from == null ? null : kindHolding(from).key(from);
        return blocks.rewriteUnder(
                repositoryRoot(),
                block -> wanted == null
                        || kindByBlock
                                .get(block.name())
                                .key(block.reportFrom(root))
                                .equals(wanted));
    }

    /** {@code path} as a block or a chart names a run: from the repository's root, with forward slashes. */
    private String relative(Path path) {
        return root.relativize(path.toAbsolutePath().normalize()).toString().replace('\\', '/');
    }

    private Path repositoryRoot() {
        if (root == null) {
            throw new IllegalStateException("run it inside the repository: no folder with .mvn/ above "
                    + Path.of("").toAbsolutePath());
        }
        return root;
    }

    private Kind<?> kindHolding(Path from) {
        return kinds.stream()
                .filter(each -> each.holds.test(from))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(from + " holds no run of " + tool));
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
            differing.forEach(block -> out.println(
                    block.where() + " differs from what `" + tool + " " + block.arguments() + "` generates"));
            List<String> charts = chartsDiffering();
            charts.forEach(out::println);
            out.println(
                    differing.isEmpty() && charts.isEmpty()
                            ? "every " + tool + " block and chart matches its data"
                            : "regenerate with: " + usage + " --from RUN" + (charts.isEmpty() ? "" : " --charts DIR")
                                    + ", or lab/results/regenerate.sh");
            return differing.isEmpty() && charts.isEmpty() ? 0 : 1;
        }
        if (args.equals(List.of("--all"))) {
            List<GeneratedBlocks.Block> changed = rewrite(null);
            changed.forEach(block -> out.println("rewrote " + block.where()));
            out.println(changed.size() + " docs block(s) rewritten, each from the run it names");
            List<Path> charts = redrawCharts();
            out.println(charts.size() + " chart(s) drawn again, each from the run it names");
            return 0;
        }
        Map<String, String> flags = fromFlags(args);
        Path from = Path.of(flags.get("--from"));
        Path charts = flags.containsKey("--charts") ? Path.of(flags.get("--charts")) : null;
        Kind<?> kind = kindHolding(from);
        kind.print(from, out);
        boolean rewritable = kind.rewritable(from);
        if (charts != null) {
            drawCharts(kind, from, charts, rewritable || flags.containsKey("--allow-noisy"), out);
        }
        if (root == null) {
            out.println("not inside a repository: no docs block rewritten");
            return 0;
        }
        if (!rewritable && !flags.containsKey("--allow-noisy")) {
            out.println(
                    "not rewriting the docs' blocks: the run was not quiet; pass --allow-noisy to write them anyway");
            return 1;
        }
        List<GeneratedBlocks.Block> changed = rewrite(from);
        changed.forEach(block -> out.println("rewrote " + block.where()));
        out.println(changed.size() + " docs block(s) rewritten from " + from);
        return 0;
    }

    /**
     * Draws the charts of the run at {@code from} into {@code folder} unless the run broke the quiet rule and
     * that is not allowed; stamps each with the run ({@link ChartData#stamp}) if the run is in the repository,
     * where the check can draw it again.
     */
    private void drawCharts(Kind<?> kind, Path from, Path folder, boolean allowed, PrintStream out) throws IOException {
        if (!allowed) {
            out.println("not drawing the charts: the run was not quiet; pass --allow-noisy to draw them anyway");
            return;
        }
        boolean inRepository = root != null && !relative(from).startsWith("..");
        for (Path png : kind.draw(from, folder, out)) {
            if (inRepository) {
                ChartData.stamp(png, tool, relative(from));
            }
        }
        if (!inRepository) {
            out.println(
                    "the charts name no run: " + from + " is not in the repository, so no check can draw them again");
        }
    }

    /** Runs the command for a tool's {@code main}, printing to stdout; exits with its status unless that is 0. */
    public void runAndExit(String[] args) throws IOException {
        int status = run(List.of(args), System.out);
        if (status != 0) {
            System.exit(status);
        }
    }

    /** {@code --from RUN}, {@code --allow-noisy} and, for a tool with charts, {@code --charts DIR}, in any order. */
    private Map<String, String> fromFlags(List<String> args) {
        boolean charted = kinds.stream().anyMatch(kind -> kind.charts != null);
        List<String> valued = charted ? List.of("--from", "--charts") : List.of("--from");
        Map<String, String> flags = new HashMap<>();
        for (int i = 0; i < args.size(); i++) {
            String flag = args.get(i);
            boolean takesValue = valued.contains(flag);
            if (!takesValue && !flag.equals("--allow-noisy")
                    || takesValue && i + 1 == args.size()
                    || flags.containsKey(flag)) {
                flags.clear();
                break;
            }
            flags.put(flag, takesValue ? args.get(++i) : "");
        }
        if (!flags.containsKey("--from")) {
            throw new IllegalArgumentException("usage: " + usage + " --from RUN" + (charted ? " [--charts DIR]" : "")
                    + " [--allow-noisy] | --check | --all (was: " + String.join(" ", args) + ")");
        }
        return flags;
    }
}
