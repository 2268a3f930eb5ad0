package io.sluice.bench;

import io.sluice.lab.Estimate;
import io.sluice.lab.Load;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The paper's columns, computed from samples. */
class ReportTest {

    static Sample sample(Cell cell, String provider, long millis) {
        return new Sample(
                Sample.Origin.UNKNOWN,
                cell,
                provider,
                0,
                0,
                millis * 1_000_000,
                millis * 1_000_000,
                1024L * 1024 * 1024,
                10L << 20,
                1L << 20,
                12,
                Load.UNKNOWN,
                "OK");
    }

    @Test
    void rowsCarryAverageSpreadSpeedAndRatioToTheBestBaseline() {
        Cell cell = Cell.parse("WRITE:100M:10"); // 1000 MiB per invocation
        Report report = new Report(List.of(
                sample(cell, "sluice", 1000),
                sample(cell, "sluice", 3000),
                sample(cell, "loop", 4000),
                sample(cell, "loop-gather", 2000),
                sample(cell, "rio", 8000)));
        Row sluice = report.row(cell, "sluice").orElseThrow();
        assertEquals(2000, sluice.avgMs(), 1e-9);
        assertEquals(Math.sqrt(2_000_000), sluice.stddevMs(), 1e-6);
        assertEquals(Math.sqrt(2_000_000) / Math.sqrt(2), sluice.stderrMs(), 1e-6);
        assertEquals(500, sluice.mibPerSecond(), 1e-9);
        assertEquals(2.0 * 1024 / 1000, sluice.cpuSecondsPerGiB(), 1e-9, "2 CPU s for 1000 MiB");
        assertEquals("loop-gather", report.bestBaseline(cell).orElseThrow().provider());
        // sluice's resampled mean time is 1000, 2000 or 3000 ms, a quarter, half and a quarter of the time
        Estimate overRio = report.speedRatio(cell, "sluice", "rio");
        assertEquals(4.0, overRio.value(), 1e-9);
        assertEquals(8000.0 / 3000, overRio.low(), 1e-9);
        assertEquals(8.0, overRio.high(), 1e-9);
        assertTrue(
                report.markdown()
                        .contains(
                                "| 100 MiB | 2* | 10 | sluice | 2000.00 | 1414.21 | 1000.00 | 500 | 1.00 (0.67-2.00) |"),
                report.markdown());
        assertTrue(report.markdown().contains("* fewer than 5 samples"), report.markdown());
        assertTrue(report.compact().contains("write 100 MiB x10 *"), report.compact());
        String targets = Targets.text(report);
        assertTrue(
                targets.contains("sluice / rio speed                   4.00 (2.67-8.00)     (>= 2.00)  met"), targets);
        assertTrue(
                targets.contains("sluice / loop-gather speed           1.00 (0.67-2.00)     (>= 0.80)  inconclusive"),
                targets);
        assertTrue(
                Targets.summary(report)
                        .contains("| write: sluice / loop-gather speed >= 0.80 | met in 0 of 1 "
                                + "| 1.00-1.00 | write 100 MiB x10 1.00 (0.67-2.00) inconclusive |"),
                Targets.summary(report));
        assertTrue(
                Targets.summary(report)
                        .contains("| write: sluice / rio speed >= 2.00 | **met in 1 of 1** | 4.00-4.00 |  |"),
                Targets.summary(report));
    }

    @Test
    void samplesOfOneForkAndRoundArePairedSoTheMachinesPaceCancels() {
        // five forks, the machine's pace different in each (the first much slower), sluice always
        // a tenth faster than the loop beside it: paired, the interval is that tenth exactly
        Cell cell = Cell.parse("WRITE:1M:1");
        long[] paceMillis = {300, 100, 120, 90, 110};
        List<Sample> samples = new ArrayList<>();
        for (int fork = 0; fork < paceMillis.length; fork++) {
            samples.add(sampleAt(cell, "sluice", fork, 2, paceMillis[fork] * 10));
            samples.add(sampleAt(cell, "loop-reused-staged-256k", fork, 2, paceMillis[fork] * 11));
        }
        Report report = new Report(samples);

        Estimate paired = report.speedRatio(cell, "sluice", "loop-reused-staged-256k");

        assertEquals(new Estimate(1.1, 1.1, 1.1).format(), paired.format());
        Estimate apart = Estimate.ratioOfMeans(
                report.row(cell, "loop-reused-staged-256k").orElseThrow().each(Sample::nanos),
                report.row(cell, "sluice").orElseThrow().each(Sample::nanos));
        assertEquals(apart.value(), paired.value(), 1e-9);
        assertTrue(apart.low() < 0.9, "drawn apart, the first fork's pace widens it: " + apart.format());
    }

    @Test
    void samplesThatDoNotPairUpAreDrawnApart() {
        Cell cell = Cell.parse("WRITE:1M:1");
        Report report = new Report(List.of(
                sampleAt(cell, "sluice", 0, 0, 100),
                sampleAt(cell, "sluice", 1, 0, 300),
                sampleAt(cell, "loop", 0, 0, 200),
                sampleAt(cell, "loop", 2, 0, 200)));

        assertEquals(
                Estimate.ratioOfMeans(new double[] {200e6, 200e6}, new double[] {100e6, 300e6}),
                report.speedRatio(cell, "sluice", "loop"));
    }

    @Test
    void samplesOfSeveralRunsAreDrawnApartEvenWhereTheirForkAndRoundCoincide() {
        // two runs pooled: sluice has fork 0 round 0 twice; the loop has it once and fork 1 besides
        Cell cell = Cell.parse("WRITE:1M:1");
        Report report = new Report(List.of(
                sampleAt(cell, "sluice", 0, 0, 100),
                sampleAt(cell, "sluice", 0, 0, 300),
                sampleAt(cell, "loop", 0, 0, 200),
                sampleAt(cell, "loop", 1, 0, 400)));

        assertEquals(
                Estimate.ratioOfMeans(new double[] {200e6, 400e6}, new double[] {100e6, 300e6}),
                report.speedRatio(cell, "sluice", "loop"));
    }

    static Sample sampleAt(Cell cell, String provider, int fork, int round, long millis) {
        Sample plain = sample(cell, provider, millis);
        return new Sample(
                plain.origin(),
                cell,
                provider,
                fork,
                round,
                plain.nanos(),
                plain.cpuNanos(),
                plain.allocatedBytes(),
                plain.peakHeapBytes(),
                plain.peakDirectBytes(),
                plain.peakThreads(),
                plain.load(),
                plain.status());
    }

    @Test
    void aTargetWhoseProviderIsMissingIsCountedAsNotMeasuredNotDropped() {
        Cell cell = Cell.parse("WRITE:100M:10");
        Report report = new Report(List.of(
                sample(cell, "sluice", 1000),
                sample(cell, "sluice", 1000),
                sample(cell, "loop-gather", 2000),
                sample(cell, "loop-gather", 2000))); // no rio, no loop

        String summary = Targets.summary(report);

        assertTrue(
                summary.contains("| write: sluice / rio speed >= 2.00 | met in 0 of 0, 1 not measured | - "
                        + "| write 100 MiB x10 not measured |"),
                summary);
        assertTrue(summary.contains("| write: sluice / loop-gather speed >= 0.80 | **met in 1 of 1** |"), summary);
    }

    /** {@code count} samples of {@code provider} in {@code cell}, each taking {@code millis}. */
    private static List<Sample> samples(Cell cell, String provider, long millis, int count) {
        return java.util.stream.IntStream.range(0, count)
                .mapToObj(round -> sample(cell, provider, millis))
                .toList();
    }

    @Test
    void theRestatedTargetsStandBesideTheOnesTheyRestateEachMarked() {
        Cell write = Cell.parse("WRITE:10M:1");
        Cell read = Cell.parse("READ:1M:10");
        Cell copy = Cell.parse("COPY:10M:1");
        List<Sample> samples = new ArrayList<>();
        samples.addAll(samples(write, "sluice", 100, 5));
        samples.addAll(samples(write, "loop-reused-staged-256k", 95, 5)); // sluice at 0.95x: met against 0.90
        samples.addAll(samples(write, "loop-staged-256k", 50, 5)); // no target: sluice at 0.50x of it
        samples.addAll(samples(write, "loop", 400, 5)); // sluice at 4x: met against 3
        samples.addAll(samples(read, "sluice-lent", 100, 5));
        samples.addAll(samples(read, "loop-reused-direct-64k", 80, 5)); // lent at 0.80x: missed against 1
        samples.addAll(samples(read, "loop-direct-64k", 90, 5)); // lent at 0.90x: met against 0.85
        samples.addAll(samples(read, "loop", 250, 5)); // lent at 2.5x: met against 1
        samples.addAll(samples(copy, "sluice", 100, 5));
        samples.addAll(samples(copy, "sluice-lent", 150, 5));
        samples.addAll(samples(copy, "loop-transfer", 110, 5)); // copyTo 1.10x, write(read(lent)) 0.73x
        samples.addAll(samples(copy, "loop-reused-direct-64k", 140, 5)); // write(read(lent)) 0.93x
        samples.addAll(samples(copy, "loop", 300, 5));
        Report report = new Report(samples);

        String summary = Targets.summary(report);

        assertTrue(
                summary.contains("| write: sluice / loop-reused-staged-256k speed >= 0.90 | **met in 1 of 1** "
                        + "| 0.95-0.95 |"),
                summary);
        assertFalse(summary.contains("/ loop-staged-256k"), "no target is stated against the pooled staged loop");
        assertTrue(
                summary.contains("| write: sluice / loop speed >= 3.00 (before: against loop, 8 KiB heap) "
                        + "| **met in 1 of 1** | 4.00-4.00 |"),
                summary);
        assertTrue(
                summary.contains("| read: sluice-lent / loop-reused-direct-64k speed >= 1.00 | met in 0 of 1 "
                        + "| 0.80-0.80 | read 1 MiB x10 0.80 (0.80-0.80) missed |"),
                summary);
        assertTrue(
                summary.contains("| read: sluice-lent / loop-direct-64k speed >= 0.85 (before: 0.85x of "
                        + "loop-direct-64k) | **met in 1 of 1** | 0.90-0.90 |"),
                summary);
        assertTrue(
                summary.contains("| read: sluice-lent / loop (8 KiB) speed >= 1.00 (before: against loop, 8 KiB "
                        + "heap) | **met in 1 of 1** | 2.50-2.50 |"),
                summary);
        assertTrue(
                summary.contains("| copy: sluice / loop-transfer speed >= 1.00 | **met in 1 of 1** | 1.10-1.10 |"),
                summary);
        assertTrue(
                summary.contains("| copy: sluice-lent (write(read)) / loop-reused-direct-64k >= 1.00 | met in 0 of 1 "
                        + "| 0.93-0.93 | copy 10 MiB x1 0.93 (0.93-0.93) missed |"),
                summary);
        assertTrue(
                summary.contains("| copy: sluice-lent (write(read)) / loop-transfer >= 0.80 (before: 0.80x of "
                        + "loop-transfer) | met in 0 of 1 | 0.73-0.73 | copy 10 MiB x1 0.73 (0.73-0.73) missed |"),
                summary);
        assertTrue(
                summary.indexOf("copy: sluice-lent (write(read)) / loop-reused-direct-64k")
                        < summary.indexOf("copy: sluice-lent (write(read)) / loop-transfer"),
                "the restated copy target comes before the one it restates");
        assertTrue(
                summary.contains("| copy: sluice-lent (write(read)) / loop >= 1.00 (before: against loop, 8 KiB "
                        + "heap) | **met in 1 of 1** | 2.00-2.00 |"),
                summary);
        assertTrue(
                summary.indexOf("write: sluice / loop-reused-staged-256k speed")
                        < summary.indexOf("write: sluice / loop speed"),
                "each restated target comes before the one it restates");
        String text = Targets.text(report);
        assertTrue(
                text.contains("copy 10 MiB x1         sluice / loop speed                  3.00 (3.00-3.00)     "
                        + "(>= 1.00)  met  (before: against loop, 8 KiB heap)"),
                text);
    }

    @Test
    void aRunWithOnlyThePooledLoopsCountsTheRestatedTargetsNotMeasured() {
        Cell copy = Cell.parse("COPY:1M:10");
        Cell read = Cell.parse("READ:1M:1");
        Cell write = Cell.parse("WRITE:1M:1");
        List<Sample> samples = new ArrayList<>();
        for (String provider : List.of("sluice", "sluice-lent", "loop")) { // no loop-transfer, no reused loop
            samples.addAll(samples(copy, provider, 100, 5));
            samples.addAll(samples(read, provider, 100, 5));
        }
        samples.addAll(samples(read, "loop-direct-64k", 100, 5)); // the pooled loops of earlier runs
        for (String provider : List.of("sluice", "loop", "loop-staged-256k")) {
            samples.addAll(samples(write, provider, 100, 5));
        }
        Report report = new Report(samples);

        String summary = Targets.summary(report);

        assertTrue(
                summary.contains("| copy: sluice / loop-transfer speed >= 1.00 | met in 0 of 0, 1 not measured | - "
                        + "| copy 1 MiB x10 not measured |"),
                summary);
        assertTrue(
                summary.contains("| copy: sluice-lent (write(read)) / loop-reused-direct-64k >= 1.00 | met in 0 of 0, "
                        + "1 not measured | - | copy 1 MiB x10 not measured |"),
                summary);
        assertTrue(
                summary.contains("| read: sluice-lent / loop-reused-direct-64k speed >= 1.00 | met in 0 of 0, 1 "
                        + "not measured | - | read 1 MiB x1 not measured |"),
                summary);
        assertTrue(
                summary.contains("| write: sluice / loop-reused-staged-256k speed >= 0.90 | met in 0 of 0, 1 "
                        + "not measured | - | write 1 MiB x1 not measured |"),
                summary);
        assertTrue(
                summary.contains("| read: sluice-lent / loop-direct-64k speed >= 0.85 (before: 0.85x of "
                        + "loop-direct-64k) | **met in 1 of 1** | 1.00-1.00 |"),
                summary);
        assertTrue(
                summary.contains("| copy: sluice / loop speed >= 1.00 (before: against loop, 8 KiB heap) "
                        + "| **met in 1 of 1** |"),
                summary);
        String text = Targets.text(report);
        assertTrue(
                text.startsWith("targets: 6 met, 2 missed, 0 inconclusive of 8 measured, 11 not measured checks"),
                text);
        assertTrue(
                text.contains("copy 1 MiB x10         sluice / loop-transfer speed         -                    "
                        + "(>= 1.00)  not measured"),
                text);
    }

    @Test
    void smallFilesHaveTheirOwnTargetsAgainstTheCarefulLoopsAndLargerFilesKeepTheirs() {
        Cell write = Cell.parse("WRITE:1K:100");
        Cell read = Cell.parse("READ:64K:1000");
        Cell copy = Cell.parse("COPY:1K:1");
        Cell largeRead = Cell.parse("READ:1M:1");
        List<Sample> samples = new ArrayList<>();
        samples.addAll(samples(write, "sluice", 100, 5));
        samples.addAll(samples(write, "loop-reused-staged-256k", 95, 5)); // 0.95x: met against 0.90, missed against 1
        samples.addAll(samples(read, "sluice", 125, 5));
        samples.addAll(samples(read, "sluice-lent", 80, 5));
        samples.addAll(samples(read, "loop-reused-direct-64k", 100, 5)); // owned 0.80x, lent 1.25x
        samples.addAll(samples(copy, "sluice-lent", 100, 5));
        samples.addAll(samples(copy, "loop-reused-direct-64k", 120, 5)); // write(read(lent)) 1.20x
        samples.addAll(samples(largeRead, "sluice-lent", 100, 5));
        samples.addAll(samples(largeRead, "loop-reused-direct-64k", 100, 5));
        Report report = new Report(samples);

        String summary = Targets.summary(report);

        assertTrue(
                summary.contains("| write: sluice / loop-reused-staged-256k speed >= 1.00 (small files) "
                        + "| met in 0 of 1 | 0.95-0.95 | write 1 KiB x100 0.95 (0.95-0.95) missed |"),
                summary);
        assertTrue(
                summary.contains("| write: sluice / loop-reused-staged-256k speed >= 0.90 | **met in 1 of 1** |"),
                summary);
        assertTrue(
                summary.contains("| read: sluice-lent / loop-reused-direct-64k speed >= 1.00 (small files) "
                        + "| **met in 1 of 1** | 1.25-1.25 |"),
                summary);
        assertTrue(
                summary.contains("| read: sluice / loop-reused-direct-64k speed >= 1.00 (small files) "
                        + "| met in 0 of 1 | 0.80-0.80 | read 64 KiB x1000 0.80 (0.80-0.80) missed |"),
                summary);
        assertTrue(
                summary.contains("| copy: sluice-lent (write(read)) / loop-reused-direct-64k >= 1.00 (small files) "
                        + "| **met in 1 of 1** | 1.20-1.20 |"),
                summary);
        assertEquals(64, Targets.smallLentHeapMiBPerGiB(read));
        assertEquals(1024, Targets.smallLentHeapMiBPerGiB(Cell.parse("READ:1K:1")), "1 KiB of garbage per 1 KiB file");
        // a 64 KiB file x1000 is 62.5 MiB; sample() allocates 1 GiB per invocation: 16,777 MiB per GiB
        assertTrue(
                summary.contains("| read: sluice-lent heap MiB per GiB <= 64.00 (small files) | met in 0 of 1 "
                        + "| 16777.22-16777.22 | read 64 KiB x1000 16777.22 (16777.22-16777.22) missed |"),
                summary);
        assertTrue(
                summary.contains("| read: sluice-lent / loop-reused-direct-64k speed >= 1.00 | **met in 1 of 1** "
                        + "| 1.00-1.00 |"),
                "1 MiB keeps the lent target without the mark: " + summary);
        assertTrue(summary.contains("| read: sluice-lent heap MiB per GiB <= 16.00 | met in 0 of 1 |"), summary);
        assertEquals(
                0,
                Targets.evaluate(report).stream()
                        .filter(check ->
                                check.cell().equals(largeRead) && check.note().equals(Targets.SMALL_FILES))
                        .count(),
                "no small-file target applies from 1 MiB");
    }

    @Test
    void aFailedSampleMakesTheRowFailed() {
        Cell cell = Cell.parse("READ:1K:1");
        Report report = new Report(List.of(
                sample(cell, "rio", 1),
                new Sample(
                        Sample.Origin.UNKNOWN,
                        cell,
                        "rio",
                        0,
                        1,
                        1,
                        1,
                        1,
                        1,
                        1,
                        1,
                        Load.UNKNOWN,
                        "FAILED: wrong bytes")));
        Row rio = report.row(cell, "rio").orElseThrow();
        assertEquals("FAILED: wrong bytes", rio.failure());
        assertTrue(Double.isNaN(report.speedRatio(cell, "rio", "rio").value()));
        assertTrue(report.markdown().contains("FAILED: wrong bytes"));
    }

    @Test
    void stressOutputIsParsedIntoCompletedOrOom() {
        Stress.Result completed =
                Stress.parse("x", 0, List.of("noise", Stress.RESULT_PREFIX + "1.500 20.5 7 12 completed"), 2);
        assertEquals(
                List.of("completed", 1.5, 20.5, 7, 12),
                List.of(
                        completed.outcome(),
                        completed.seconds(),
                        completed.peakHeapMiB(),
                        completed.threadsBefore(),
                        completed.peakThreads()));
        assertEquals(
                "OOM (OutOfMemoryError) after 2.0 s (child JVM lifetime)",
                Stress.parse("x", 3, List.of("Terminating due to java.lang.OutOfMemoryError: Java heap space"), 2)
                        .outcome());
    }
}
