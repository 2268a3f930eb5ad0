package io.sluice.server.ws.load;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A fan-out run read back from its CSVs: the same rows and samples, the same gates, the seed's table, the charts. */
class FanOutReportTest {

    @TempDir
    Path dir;

    @Test
    void aRunReadsBackAsItWasWritten() throws Exception {
        FanOutReport report = FanOutReport.read(FanOutFixtures.write(dir));
        assertEquals(
                FanOutFixtures.results().stream().map(LaneResult::csvRow).toList(),
                report.results().stream().map(LaneResult::csvRow).toList());
        assertEquals(
                FanOutFixtures.samples().stream().map(LaneSample::csvRow).toList(),
                report.samples().stream().map(LaneSample::csvRow).toList());
        assertTrue(report.quietness().quiet());
        assertTrue(report.gates().endsWith("gates: 22 passed, 0 failed\n"), report.gates());
    }

    @Test
    void aFolderWrittenBeforeTheRepeatAndSubscriberColumnsReadsAsRepeatOneNotRecorded() throws Exception {
        Path run = FanOutFixtures.write(dir);
        Path rows = run.resolve(LaneResult.FILE);
        Files.write(
                rows,
                Files.readAllLines(rows).stream()
                        .map(line -> line.replaceFirst("(,[^,]*){6}$", ""))
                        .toList());
        Path series = run.resolve(LaneSample.FILE);
        Files.write(
                series,
                Files.readAllLines(series).stream()
                        .map(line -> line.replaceFirst(",[^,]*$", ""))
                        .toList());
        assertEquals(LaneResult.LEGACY_CSV_HEADER, Files.readAllLines(rows).get(0));
        FanOutReport report = FanOutReport.read(run);
        assertTrue(report.results().stream()
                .allMatch(result -> result.repeat() == 1
                        && result.subscribersAtEnd() == -1
                        && result.cost().equals(ProcessCost.NOT_RECORDED)));
        assertTrue(report.samples().stream().allMatch(sample -> sample.repeat() == 1));
        assertEquals(1, report.repeats());
        assertTrue(
                report.gates().endsWith("gates: 19 passed, 0 failed\n"),
                "no connected-clients gate: " + report.gates());
    }

    @Test
    void aFolderWrittenBeforeTheCostColumnsRendersItsOtherBlocksAsBeforeAndSaysTheCostWasNotRecorded()
            throws Exception {
        FanOutReport full = FanOutReport.read(FanOutFixtures.write(dir.resolve("full")));
        Path run = FanOutFixtures.write(dir.resolve("before-cost"));
        Path rows = run.resolve(LaneResult.FILE);
        Files.write(
                rows,
                Files.readAllLines(rows).stream()
                        .map(line -> line.replaceFirst("(,[^,]*){4}$", ""))
                        .toList());
        assertEquals(LaneResult.BEFORE_COST_CSV_HEADER, Files.readAllLines(rows).get(0));
        FanOutReport before = FanOutReport.read(run);
        assertTrue(
                before.results().stream()
                        .allMatch(result -> result.cost().equals(ProcessCost.NOT_RECORDED)
                                && result.subscribersAtEnd()
                                        == (result.serverDeath().isEmpty() ? 1000 : -1)),
                before.results().toString());
        assertEquals(
                List.of(full.line(), full.table(), full.seed(), full.gates()),
                List.of(before.line(), before.table(), before.seed(), before.gates()));
        assertEquals(FanOutReport.COST_NOT_RECORDED, before.cost());
    }

    @Test
    void theCostTableGivesEachLanesCpuPerMessageWriteSyscallsPerThousandAndTheClientsCpu() throws Exception {
        FanOutReport report = FanOutReport.read(FanOutFixtures.write(dir));
        String cost = report.cost();
        // bounded: 19,000,000 messages in 20 s; user 7 s, system 5 s, all 12 s, 950,000 write calls, clients 16 s
        assertTrue(cost.contains("| bounded | 950,000 | 0.37 | 0.26 | 0.63 | 50.00 | 0.84 |\n"), cost);
        assertEquals(2 + FanOutFixtures.results().size(), cost.lines().count(), cost);
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        report.print(new PrintStream(printed, true, StandardCharsets.UTF_8));
        assertTrue(printed.toString(StandardCharsets.UTF_8).contains(cost), "report --from prints it");
    }

    @Test
    void theLanesTableGivesEachLanesRateCpuPerMessageBusyCoresAndItsRatioToTheFirstLane() throws Exception {
        FanOutReport report = FanOutReport.read(FanOutFixtures.write(dir));
        String lanes = report.lanes();
        // bounded: 19,000,000 messages in 20 s with 12 s of server CPU; fixed: 18,400,000 in 20 s, 12 s
        assertTrue(lanes.contains("| bounded | 1 | 950,000 (1 sample) | 0.63 | 0.60 | the reference |\n"), lanes);
        assertTrue(lanes.contains("| fixed | 1 | 920,000 (1 sample) | 0.65 | 0.60 | 0.97 (1 sample) |\n"), lanes);
        assertEquals(2 + 4, lanes.lines().count(), lanes);
    }

    @Test
    void aLaneWhoseServerCpuWasNotReadShowsDashesInTheLanesTable() throws Exception {
        Path run = FanOutFixtures.write(dir);
        Path rows = run.resolve(LaneResult.FILE);
        List<String> lines = new java.util.ArrayList<>(Files.readAllLines(rows).subList(0, 1));
        FanOutFixtures.results()
                .forEach(result -> lines.add(
                        (result.lane().equals("unbounded") ? FanOutFixtures.withServerCpu(result, Double.NaN) : result)
                                .csvRow()));
        Files.write(rows, lines);

        String lanes = FanOutReport.read(run).lanes();

        assertTrue(lanes.contains("| unbounded | 1 | 700,000 (1 sample) | - | - | 0.74 (1 sample) |\n"), lanes);
    }

    @Test
    void aCostFigureNotRecordedPrintsAsADash() {
        LaneResult unread =
                FanOutFixtures.withCost(FanOutFixtures.results().get(0), new ProcessCost(7, 5, -1, Double.NaN));
        String cost = new FanOutReport(List.of(unread), List.of()).cost();
        assertTrue(cost.contains("| bounded | 950,000 | 0.37 | 0.26 | 0.63 | - | - |\n"), cost);
    }

    @Test
    void aRunOfTwoRepeatsHasALinePerLaneAndRepeatAndTheFirstRepeatsSeedTable() throws Exception {
        Path run = FanOutFixtures.write(dir);
        Path rows = run.resolve(LaneResult.FILE);
        List<String> twice = new java.util.ArrayList<>(Files.readAllLines(rows));
        FanOutFixtures.results()
                .forEach(result -> twice.add(FanOutFixtures.inRepeat(result, 2).csvRow()));
        Files.write(rows, twice);
        Path series = run.resolve(LaneSample.FILE);
        List<String> samples = new java.util.ArrayList<>(Files.readAllLines(series));
        FanOutFixtures.samples()
                .forEach(
                        sample -> samples.add(FanOutFixtures.inRepeat(sample, 2).csvRow()));
        Files.write(series, samples);
        FanOutReport report = FanOutReport.read(run);
        assertEquals(2, report.repeats());
        assertTrue(report.table().contains("| fixed (repeat 2) | 1,000 (100) | 920,000 |"), report.table());
        assertTrue(report.line().contains("bounded-all-fast, 2 repeats;"), report.line());
        assertTrue(report.seed().contains("| ours: bounded (repeat 1 of 2) |"), report.seed());
        assertTrue(report.gates().contains("ratio 1.07 (1.07-1.07) over 2 repeats"), report.gates());
        assertTrue(
                report.lanes().contains("| fixed | 2 | 920,000 (920,000-920,000) | 0.65 | 0.60 | 0.97 (0.97-0.97) |"),
                report.lanes());
    }

    @Test
    void aRunWithoutLoadFiguresIsNotQuiet() throws Exception {
        Path run = FanOutFixtures.write(dir);
        Path rows = run.resolve(LaneResult.FILE);
        Files.writeString(rows, Files.readString(rows).replaceFirst(",0\\.050,", ",NaN,"));
        FanOutReport report = FanOutReport.read(run);
        assertTrue(
                !report.quietness().quiet()
                        && report.line()
                                .endsWith(
                                        "; machine unknown (other work's share of the cores not recorded for 1 of 4 lanes)."),
                report.line());
    }

    @Test
    void quotedFieldsKeepTheirCommasAndQuotes() {
        LaneResult died = FanOutFixtures.result("unbounded", 100, 1, 1, 1, 1, 1, "exit status 1, then \"more\"");
        assertEquals(
                "exit status 1, then \"more\"", LaneResult.parse(died.csvRow()).serverDeath());
    }

    @Test
    void theSeedsTableStandsBesideOursWithTheCostOfBackpressureOverTheWindowBeforeTheControlDegraded()
            throws Exception {
        String seed = FanOutReport.read(FanOutFixtures.write(dir)).seed();
        assertTrue(
                seed.startsWith("| | seed (Undertow, an actor per client; 4-core i7-4770, JDK 12) | ours: bounded"
                        + " | ours: fixed | ours: unbounded |\n|---|---|---|---|---|\n"),
                seed);
        assertTrue(
                seed.contains("| messages/s | 1,351,598 on average over 100 million (with backpressure) | 950,000"
                        + " | 920,000 | 700,000 |"),
                seed);
        assertTrue(
                seed.contains("| cost of backpressure | 10-20% of throughput | -7% (from 5.38 s to 10.75 s)"
                        + " | -4% (from 5.38 s to 10.75 s) | the reference |"),
                seed);
        assertTrue(
                seed.contains("| clients (slow) | 1,000 (10%, 200 ms per message) | 1,000 (100) | 1,000 (100) |"),
                seed);
        assertTrue(
                seed.contains("| in-flight limit | 100 messages in flight, at most 5,000 buffered per client"
                        + " | adaptive, at most 64 KiB (262 messages) per client | 100 messages per client | none |"),
                seed);
        assertTrue(seed.contains(", died: OutOfMemoryError |"), seed);
    }

    @Test
    void theChartsAreDrawnFromTheSeries() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        List<Path> charts = FanOutReport.read(FanOutFixtures.write(dir.resolve("run")))
                .charts(dir.resolve("images"), new PrintStream(printed, true, StandardCharsets.UTF_8));
        assertEquals(
                List.of(dir.resolve("images/websocket-rate.png"), dir.resolve("images/websocket-memory.png")), charts);
        for (Path chart : charts) {
            assertTrue(Files.size(chart) > 1000, chart + " is a picture");
        }
    }
}
