package io.sluice.bench.adaptive;

import io.sluice.lab.Quietness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Scenario C's tables and targets from fixture rows: met or missed on one repetition, by interval on three. */
class SharedSinkTablesTest {

    private static final long MIB = 1L << 20;

    @Test
    void oneRepetitionIsMetOrMissedByItsFigures(@TempDir Path dir) throws IOException {
        write(dir, rows("full", 1, 114.8, 120));

        String targets = SharedSinkTables.targets(dir);

        assertTrue(
                targets.startsWith("scenario C (full): 8 x 256 MiB into one sink alternating 200/20 MiB/s every"
                        + " 2000 ms, 1 round(s) of every strategy per repetition; 1 repetition(s)\n"),
                targets);
        assertTrue(targets.contains("adaptive aggregate MiB/s >= 93: 114.80 (114.80-114.80): met\n"), targets);
        assertTrue(
                targets.contains(
                        "adaptive / the best fixed window (fixed(64,16)) MiB/s >= 0.95: 0.96 (0.96-0.96): met\n"),
                targets);
        assertTrue(targets.contains("adaptive peak queued MiB, all writers <= 32: 3.50 (3.50-3.50): met\n"), targets);
        assertTrue(
                targets.contains("adaptive window shrank after every fast → slow switch (share of the switches) >= 1:"
                        + " 1.00 (1.00-1.00): met\n"),
                targets);
        assertTrue(
                targets.contains("control (all-at-once, no byte bound) peak queued MiB >= 512, or out of memory:"
                        + " 512.00 (512.00-512.00): met\n"),
                targets);
        assertTrue(targets.contains("unpaced: adaptive peak queued MiB, all writers <= 32: 8.00"), targets);
        assertTrue(targets.endsWith("=> met\n"), targets);

        write(dir, rows("full", 1, 110, 120));
        String missed = SharedSinkTables.targets(dir);
        assertTrue(missed.contains("(fixed(64,16)) MiB/s >= 0.95: 0.92 (0.92-0.92): missed\n"), missed);
        assertTrue(missed.endsWith("=> missed\n"), missed);
    }

    @Test
    void repetitionsJudgeEachTargetByItsInterval(@TempDir Path dir) throws IOException {
        // adaptive against the best fixed window: 0.96x on average, from 0.90x to 1.02x: the interval straddles 0.95
        List<String> rows = new ArrayList<>();
        rows.addAll(rows("full", 1, 108, 120));
        rows.addAll(rows("full", 2, 115.2, 120));
        rows.addAll(rows("full", 3, 122.4, 120));
        write(dir, rows);

        String targets = SharedSinkTables.targets(dir);

        assertTrue(targets.contains("; 3 repetition(s)\n"), targets);
        assertTrue(targets.contains("adaptive aggregate MiB/s >= 93: 115.20 ("), targets);
        assertTrue(targets.contains("(fixed(64,16)) MiB/s >= 0.95: 0.96 (0.90-1.02): inconclusive\n"), targets);
        assertTrue(targets.endsWith("=> inconclusive\n"), targets);
    }

    @Test
    void smokeScaleJudgesRatiosToTheIdealAndWindowsOverTime(@TempDir Path dir) throws IOException {
        write(dir, rows("smoke", 1, 60, 100));

        String targets = SharedSinkTables.targets(dir);

        assertTrue(
                targets.contains("adaptive MiB/s / the ideal for its run >= 0.50: 0.52 (0.52-0.52): met\n"), targets);
        assertTrue(targets.contains("(fixed(64,16)) MiB/s >= 0.50: 0.60 (0.60-0.60): met\n"), targets);
        assertTrue(
                targets.contains("adaptive mean window in fast periods - in slow ones, items > 0: 77.00 (77.00-77.00):"
                        + " met\n"),
                targets);
        assertTrue(
                targets.contains(
                        "  (not a target at this scale: the window shrank after 2 of 2 fast → slow switches)\n"),
                targets);
        assertTrue(targets.contains("peak queued MiB >= 32, or out of memory: 32.00 (32.00-32.00): met\n"), targets);
        assertTrue(targets.endsWith("=> met\n"), targets);
    }

    @Test
    void theRunsTableShowsEveryProducersAndStrategy(@TempDir Path dir) throws IOException {
        write(dir, rows("full", 1, 114.8, 120));

        String runs = SharedSinkTables.runs(dir);

        assertTrue(
                runs.contains(
                        "| paced | adaptive | 114.80 (114.80-114.80) | 17.8 | 3.5 | 17..128 | 113 / 36 | 2 of 2 (2) |\n"),
                runs);
        assertTrue(
                runs.contains(
                        "| paced | fixed(64,16) | 120.00 (120.00-120.00) | 17.8 | 3.7 | 80 | 80 / 80 | 0 of 2 (0) |\n"),
                runs);
        assertTrue(
                runs.contains(
                        "| paced | all-at-once | 100.00 (100.00-100.00) | 17.8 | 0.0 (1 out of memory) | unbounded"
                                + " | unbounded | - |\n"),
                runs);
        assertTrue(runs.contains("| unpaced | all-at-once | 117.00 (117.00-117.00) | 17.8 | 1859.0 | unbounded"), runs);
    }

    @Test
    void aFolderWithoutScenarioCSaysSoAndItsRowsCountForTheQuietRule(@TempDir Path dir) throws IOException {
        assertEquals("Scenario C was not run in this folder.\n", SharedSinkTables.targets(dir));
        assertEquals("Scenario C was not run in this folder.\n", SharedSinkTables.runs(dir));

        Files.writeString(dir.resolve(ScenarioMain.RUNS_CSV), ScenarioMain.RUNS_HEADER + "\n");
        List<String> rows = new ArrayList<>(rows("full", 1, 114.8, 120));
        rows.set(0, rows.get(0).replaceAll(",0\\.020$", ",0.400"));
        write(dir, rows);
        Quietness quietness = AdaptiveTables.quietness(dir);

        assertTrue(
                !quietness.quiet() && quietness.inWords().startsWith("NOISY: other work kept at most 40%"),
                quietness.inWords());
    }

    @Test
    void aResultsRowIsReadBackFieldByField(@TempDir Path dir) throws IOException {
        SharedSinkResult result = new SharedSinkResult(
                SharedSink.Producers.PACED,
                "fixed(16,4)",
                111.25,
                18.5,
                5L * MIB,
                true,
                new SharedSinkResult.Windows(17, 128, 4, 3, 2, 300, 3, 140, 4),
                null,
                null);
        String row = result.csv(SharedSink.FULL, 2, new io.sluice.lab.Load(0.75, 0.5, 0.125));
        write(dir, List.of(row));

        SharedSinkTables.Row read = SharedSinkTables.rows(dir).get(0);

        assertEquals(
                new SharedSinkTables.Row(
                        "full",
                        "paced",
                        "fixed(16,4)",
                        2,
                        18.5,
                        111.25,
                        Math.round(SharedSink.FULL.idealPacedMibPerSecond(18.5) * 100) / 100.0,
                        5L * MIB,
                        true,
                        4,
                        3,
                        2,
                        17,
                        128,
                        100.0,
                        35.0,
                        0.125),
                read);
    }

    private static void write(Path dir, List<String> rows) throws IOException {
        Files.writeString(
                dir.resolve(SharedSinkResult.CSV), SharedSinkResult.HEADER + "\n" + String.join("\n", rows) + "\n");
    }

    /**
     * One repetition's rows: paced adaptive at {@code adaptiveMib} (ideal 115), shrinking after both its switches;
     * fixed(64,16) the best fixed window at {@code fixedMib}; the control out of memory; unpaced at 117 MiB/s.
     */
    private static List<String> rows(String scale, int repetition, double adaptiveMib, double fixedMib) {
        SharedSink size = SharedSink.named(scale);
        List<String> rows = new ArrayList<>();
        rows.add(row(size, "paced", "adaptive", repetition, adaptiveMib, 115, 3.5, false, 2, 2, 17, 128, 113, 36));
        rows.add(row(size, "paced", "fixed(4,1)", repetition, fixedMib - 1, 115, 0.3, false, 2, 0, 5, 5, 5, 5));
        rows.add(row(size, "paced", "fixed(16,4)", repetition, fixedMib - 0.5, 115, 0.9, false, 2, 0, 20, 20, 20, 20));
        rows.add(row(size, "paced", "fixed(64,16)", repetition, fixedMib, 115, 3.7, false, 2, 0, 80, 80, 80, 80));
        rows.add(row(
                size,
                "paced",
                "all-at-once",
                repetition,
                100,
                115,
                0,
                true,
                0,
                0,
                Long.MAX_VALUE,
                Long.MAX_VALUE,
                0,
                0));
        for (String strategy : List.of("adaptive", "fixed(4,1)", "fixed(16,4)", "fixed(64,16)", "all-at-once")) {
            boolean control = strategy.equals("all-at-once");
            long window = control ? Long.MAX_VALUE : 17;
            rows.add(row(
                    size,
                    "unpaced",
                    strategy,
                    repetition,
                    117,
                    Double.NaN,
                    control ? 1859 : 8,
                    false,
                    0,
                    0,
                    window,
                    window,
                    17,
                    17));
        }
        return rows;
    }

    private static String row(
            SharedSink size,
            String producers,
            String strategy,
            int repetition,
            double mib,
            double ideal,
            double queuedMib,
            boolean outOfMemory,
            int switches,
            int shrank,
            long smallest,
            long largest,
            double meanFast,
            double meanSlow) {
        return String.format(
                Locale.ROOT,
                "%s,%s,\"%s\",%d,%d,%d,%d,17.800,%.2f,%s,%d,%b,%d,%d,%d,%d,%d,%.1f,%.1f,0.50,0.40,0.020",
                size.scale(),
                producers,
                strategy,
                repetition,
                size.streams(),
                size.bytesEach(),
                size.periodMillis(),
                mib,
                Double.isNaN(ideal) ? "" : String.format(Locale.ROOT, "%.2f", ideal),
                (long) (queuedMib * MIB),
                outOfMemory,
                switches,
                shrank,
                shrank,
                smallest,
                largest,
                meanFast,
                meanSlow);
    }
}
