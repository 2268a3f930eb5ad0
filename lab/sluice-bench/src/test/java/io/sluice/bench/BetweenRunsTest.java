package io.sluice.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The same targets in several runs side by side: each run's figure and verdict, and how far the figure moved. */
class BetweenRunsTest {

    private static final Cell WRITE = Cell.parse("WRITE:1M:1");
    private static final Cell READ = Cell.parse("READ:1M:1");

    @TempDir
    Path dir;

    /** A run of five forks: sluice's write against the staged loop, and a read only the first run has. */
    private void run(String name, long sluiceWrite, boolean withRead) throws IOException {
        Path folder = Files.createDirectories(dir.resolve(name));
        List<String> lines = new ArrayList<>(List.of(Sample.HEADER));
        for (int fork = 0; fork < 5; fork++) {
            lines.add(ReportTest.sampleAt(WRITE, "sluice", fork, 2, sluiceWrite).toCsv());
            lines.add(ReportTest.sampleAt(WRITE, "loop-reused-staged-256k", fork, 2, 100)
                    .toCsv());
            if (withRead) {
                lines.add(ReportTest.sampleAt(READ, "sluice-lent", fork, 2, 100).toCsv());
                lines.add(ReportTest.sampleAt(READ, "loop-reused-direct-64k", fork, 2, 100)
                        .toCsv());
            }
        }
        Files.write(folder.resolve("samples.csv"), lines);
    }

    @Test
    void eachRunsFigureAndVerdictStandSideBySideWithHowFarItMoved() throws Exception {
        run("day-1/grid", 100, true); // level with the loop: 1.00, met against 0.9
        run("day-2/grid", 125, false); // a quarter slower: 0.80, missed
        Path comparison = Files.createDirectories(dir.resolve("between"));
        Files.writeString(
                comparison.resolve(BetweenRuns.RUNS_FILE), "# oldest first\n../day-1/grid\n\n../day-2/grid\n");
        assertTrue(BetweenRuns.isRun(comparison));

        String table = BetweenRuns.read(comparison).table();

        assertTrue(table.contains("- run 1: `../day-1/grid`: Commit unknown"), table);
        assertTrue(
                table.contains("| write: sluice / loop-reused-staged-256k speed >= 0.90 | write 1 MiB x1 "
                        + "| 1.00 (1.00-1.00) met | 0.80 (0.80-0.80) missed | 25% | inconclusive |"),
                table);
        assertFalse(table.contains("read 1 MiB x1"), "a cell only one run measured is left out: " + table);
        assertFalse(table.contains("(before:"), "targets kept beside a restatement are left out: " + table);
        assertTrue(
                table.contains("Verdicts the same in every run: 0 of 1 target cells. "
                        + "Largest figure over smallest: median 25% apart, largest 25%."),
                table);
        assertTrue(table.contains("Over the runs: met in 0, missed in 0, inconclusive in 1 of 1."), table);
    }

    @Test
    void aTargetIsMetOrMissedOverTheRunsOnlyWhenEveryRunSaysSo() throws Exception {
        run("day-1/grid", 100, false); // 1.00, met against 0.9
        run("day-2/grid", 105, false); // 0.95, met
        run("day-3/grid", 125, false); // 0.80, missed
        Path two = Files.createDirectories(dir.resolve("two"));
        Files.writeString(two.resolve(BetweenRuns.RUNS_FILE), "../day-1/grid\n../day-2/grid\n");
        Path three = Files.createDirectories(dir.resolve("three"));
        Files.writeString(three.resolve(BetweenRuns.RUNS_FILE), "../day-1/grid\n../day-2/grid\n../day-3/grid\n");

        String agreeing = BetweenRuns.read(two).table();
        String differing = BetweenRuns.read(three).table();

        assertTrue(agreeing.contains("| 5% | met |"), agreeing);
        assertTrue(agreeing.contains("Over the runs: met in 1, missed in 0, inconclusive in 0 of 1."), agreeing);
        assertTrue(differing.contains("| 25% | inconclusive |"), differing);
        assertTrue(differing.contains("Over the runs: met in 0, missed in 0, inconclusive in 1 of 1."), differing);
    }

    @Test
    void oneRunIsNoComparison() throws Exception {
        run("day-1/grid", 100, true);
        Path comparison = Files.createDirectories(dir.resolve("between"));
        Files.writeString(comparison.resolve(BetweenRuns.RUNS_FILE), "../day-1/grid\n");

        IOException refused = assertThrows(IOException.class, () -> BetweenRuns.read(comparison));
        assertTrue(refused.getMessage().contains("names 1 run(s); a comparison needs two"), refused.getMessage());
    }
}
