package io.sluice.lab;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A measured figure belongs in a generated block, where the build checks it against the run it
 * came from; prose outside the blocks says what the figures show in words. This test scans every
 * Markdown file of the repository (none in a build's {@code target/}, {@code .git/} or
 * {@code node_modules/}) outside generated blocks and fenced code for the shapes measured figures
 * take and stated targets do not: an estimate with its interval ({@code 0.62 (0.56-0.68)},
 * {@code 0.62x (0.56-0.68)}), a range of measured values with a unit ({@code 0.78–0.91x},
 * {@code 0.75x-0.81x}, {@code 2.8-3.2 us}, {@code 1.2-1.5 s}), a percentage, a rate or a CPU cost
 * with decimals ({@code 96.2%}, {@code 133.6 MiB/s}, {@code 4.31 CPU s/GiB}). Targets ({@code >= 1.5x}, {@code 0.85x}) and
 * configuration ({@code 64 KiB}, {@code 200 MiB/s} of a scenario) have none of these shapes; a lone
 * ratio ({@code 1.01x}) cannot be told from a target by its shape, so it is left to review.
 *
 * <p>One exemption: the files a lab tool writes whole at run time into a folder under
 * {@code lab/results} ({@link #TOOL_OUTPUT}). They are the run's printed output, data like the CSV
 * beside them, kept as the tool wrote them and never edited by hand; a page quotes their figures
 * only through blocks. A results folder's README is written by hand and is scanned like any page.
 */
class FiguresOutsideBlocksTest {

    private static final List<Pattern> MEASURED = List.of(
            Pattern.compile("\\d+\\.\\d+x? \\(\\d+\\.\\d+x?\\s?[-\u2013]\\s?\\d+\\.\\d+x?\\)"),
            Pattern.compile(
                    "\\d+\\.\\d+x?\\s?[-\u2013]\\s?\\d+(\\.\\d+)?\\s?(x|%|MiB|GiB|ns|us|\u00b5s|ms|s|CPU)(?![\\w])"),
            Pattern.compile("(?<![\u00a7\\w.\u2013-])\\d+\\.\\d+ ?(CPU )?s/GiB"),
            Pattern.compile("(?<![\u00a7\\w.\u2013-])\\d+\\.\\d+%"),
            Pattern.compile("(?<![\u00a7\\w.\u2013-])\\d+\\.\\d+ ?MiB/s"));

    /**
     * The names of the files a lab tool writes whole at run time into a results folder, with the tool
     * that writes each: the run's printed output, not a page.
     */
    static final Map<String, String> TOOL_OUTPUT = Map.ofEntries(
            Map.entry("report.md", "sluice-bench BenchMain: a profile run's report of its samples"),
            Map.entry("stress-report.md", "sluice-bench BenchMain: the stress case's report"),
            Map.entry("adaptive-report.md", "sluice-bench adaptive ScenarioMain: the scenarios' report"),
            Map.entry("scenarios.md", "sluice-bench adaptive ScenarioMain as it stood at e041353: its report then"),
            Map.entry("sweep.md", "sluice-bench adaptive SweepMain as it stood at e041353: the sweep's report"),
            Map.entry(
                    "scenario-c.md",
                    "scenario C's console, as the server module printed it before the adaptive scenarios took it"),
            Map.entry(
                    "output.md",
                    "the console of a harness: sluice-server's scripts/run-load.sh writes it with"
                            + " --results; the WebSocket FanOutLoadMain's, the Spring LoadHarness's and the S3LoadHarness's"
                            + " console is saved under this name"),
            Map.entry(
                    "server-a1-lent.md",
                    "sluice-server scripts/run-load.sh: its console (target/load-SCALE-TIME.md),"
                            + " kept under the lane's name by a run from before --results"),
            Map.entry("server-a1-owned-08cc415.md", "sluice-server scripts/run-load.sh, as server-a1-lent.md"),
            Map.entry("server-full-lent.md", "sluice-server scripts/run-load.sh, as server-a1-lent.md"));

    @Test
    void noMeasuredFigureOutsideAGeneratedBlock() throws IOException {
        Path root = GeneratedBlocks.repositoryRoot(Path.of("")).orElseThrow();
        List<String> found = new ArrayList<>();
        for (Path page : pages(root)) {
            found.addAll(figuresOutsideBlocks(root.relativize(page).toString(), Files.readAllLines(page)));
        }
        assertEquals(List.of(), found, "a measured figure outside a generated block: say it in words, or generate it");
    }

    @Test
    void findsEachShapeInProseAndNoneInBlocksOrCode() {
        List<String> page = List.of(
                "Writes at 0.78\u20130.91x the loop, 0.62 (0.56-0.68) at x100;",
                "bounded is 1.01x, 96.2% of it, 133.6 MiB/s, 2.8-3.2 us a message.",
                "Copies at 0.62x (0.56-0.68), 0.83 vs 4.31 CPU s/GiB, 1.2-1.5 s a run, 0.75x-0.81x of it.",
                "Targets: >= 1.5x, 0.9x of the loop, scenario at 200 MiB/s; rule \u00a71.11 and \u00a73.13; 1.5 s a GiB of CPU.",
                "<!-- generated by: tool report --from run [table] -->",
                "| 0.78 (0.70-0.80) | 1.01x |",
                "<!-- end generated -->",
                "```",
                "ratio 1.01 (0.95-1.07)",
                "```");

        List<String> found = figuresOutsideBlocks("PAGE.md", page);

        assertEquals(
                List.of(
                        "PAGE.md:1: 0.78\u20130.91x",
                        "PAGE.md:1: 0.62 (0.56-0.68)",
                        "PAGE.md:2: 96.2%",
                        "PAGE.md:2: 133.6 MiB/s",
                        "PAGE.md:2: 2.8-3.2 us",
                        "PAGE.md:3: 0.62x (0.56-0.68)",
                        "PAGE.md:3: 4.31 CPU s/GiB",
                        "PAGE.md:3: 1.2-1.5 s",
                        "PAGE.md:3: 0.75x-0.81x"),
                found);
    }

    @Test
    void scansEveryMarkdownFileButWhatALabToolWroteIntoAResultsFolder() {
        assertTrue(scanned(Path.of("README.md")));
        assertTrue(scanned(Path.of("sluice-stress/README.md")));
        assertTrue(scanned(Path.of("lab/results/README.md")));
        assertTrue(scanned(Path.of("lab/results/2026-01-01-run/README.md")));
        assertTrue(scanned(Path.of("lab/results/2026-01-01-run/notes.md")));
        assertTrue(scanned(Path.of("docs/report.md")), "a report.md outside lab/results is a page");

        assertFalse(scanned(Path.of("lab/results/2026-01-01-run/report.md")));
        assertFalse(scanned(Path.of("lab/results/2026-01-01-run/grid/report.md")));
        assertFalse(scanned(Path.of("lab/results/2026-01-01-run/output.md")));
        assertFalse(scanned(Path.of("lab/results/2026-01-01-run/adaptive/adaptive-report.md")));
        assertFalse(scanned(Path.of("lab/results/2026-01-01-run/scenario-c.md")));
    }

    @Test
    void walksEveryFolderButABuildsOutputGitAndPackages(@TempDir Path root) throws IOException {
        for (String file : List.of(
                "README.md",
                "docs/A.md",
                "lab/results/README.md",
                "lab/results/run/README.md",
                "lab/results/run/grid/report.md",
                "lab/results/run/samples.csv",
                "target/B.md",
                "lab/tool/target/C.md",
                ".git/D.md",
                "node_modules/pkg/README.md")) {
            Files.createDirectories(root.resolve(file).getParent());
            Files.writeString(root.resolve(file), "text");
        }

        List<String> found = pages(root).stream()
                .map(page -> root.relativize(page).toString().replace('\\', '/'))
                .toList();

        assertEquals(List.of("README.md", "docs/A.md", "lab/results/README.md", "lab/results/run/README.md"), found);
    }

    /** Whether the file at {@code relative} (to the repository's root) is a page this test scans. */
    static boolean scanned(Path relative) {
        String name = relative.getFileName().toString();
        boolean inResults = relative.startsWith(Path.of("lab", "results")) && relative.getNameCount() > 3;
        return name.endsWith(".md") && !(inResults && TOOL_OUTPUT.containsKey(name));
    }

    /** Every Markdown file under {@code root} ({@link RepositoryFiles}) that {@link #scanned} accepts, sorted. */
    private static List<Path> pages(Path root) throws IOException {
        return RepositoryFiles.under(root, FiguresOutsideBlocksTest::scanned);
    }

    /** {@code PAGE:LINE: FIGURE} for each measured figure in {@code lines} outside blocks and code, in reading order. */
    private static List<String> figuresOutsideBlocks(String page, List<String> lines) {
        List<String> found = new ArrayList<>();
        boolean block = false;
        boolean code = false;
        for (int index = 0; index < lines.size(); index++) {
            String line = lines.get(index);
            if (line.startsWith("<!-- generated by")) {
                block = true;
            } else if (line.startsWith("<!-- end generated")) {
                block = false;
            } else if (line.startsWith("```")) {
                code = !code;
            } else if (!block && !code) {
                TreeMap<Integer, String> byPosition = new TreeMap<>();
                for (Pattern shape : MEASURED) {
                    Matcher figures = shape.matcher(line);
                    while (figures.find()) {
                        byPosition.putIfAbsent(figures.start(), figures.group());
                    }
                }
                for (String figure : byPosition.values()) {
                    found.add(page + ":" + (index + 1) + ": " + figure);
                }
            }
        }
        return found;
    }
}
