package io.sluice.bench;

import io.sluice.lab.Estimate;
import io.sluice.lab.Load;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The paper's columns, computed from samples. */
class ReportTest {

    static Sample sample(Cell cell, String provider, long millis) {
        return new Sample(Sample.Origin.UNKNOWN, cell, provider, 0, 0, millis * 1_000_000, millis * 1_000_000,
                1024L * 1024 * 1024, 10L << 20, 1L << 20, 12, Load.UNKNOWN, "OK");
    }

    @Test
    void rowsCarryAverageSpreadSpeedAndRatioToTheBestBaseline() {
        Cell cell = Cell.parse("WRITE:100M:10"); // 1000 MiB per invocation
        Report report = new Report(List.of(
                sample(cell, "sluice", 1000), sample(cell, "sluice", 3000),
                sample(cell, "loop", 4000), sample(cell, "loop-gather", 2000), sample(cell, "rio", 8000)));
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
        assertTrue(report.markdown().contains(
                "| 100 MiB | 2* | 10 | sluice | 2000.00 | 1414.21 | 1000.00 | 500 | 1.00 (0.67-2.00) |"), report.markdown());
        assertTrue(report.markdown().contains("* fewer than 5 samples"), report.markdown());
        assertTrue(report.compact().contains("write 100 MiB x10 *"), report.compact());
        String targets = Targets.text(report);
        assertTrue(targets.contains("sluice / rio speed                   4.00 (2.67-8.00)     (>= 2.00)  met"), targets);
        assertTrue(targets.contains("sluice / loop-gather speed           1.00 (0.67-2.00)     (>= 0.80)  inconclusive"),
                targets);
        assertTrue(Targets.summary(report).contains("| write: sluice / loop-gather speed >= 0.80 | met in 0 of 1 "
                + "| 1.00-1.00 | write 100 MiB x10 1.00 (0.67-2.00) inconclusive |"), Targets.summary(report));
        assertTrue(Targets.summary(report).contains("| write: sluice / rio speed >= 2.00 | **met in 1 of 1** | 4.00-4.00 |  |"),
                Targets.summary(report));
    }

    @Test
    void aTargetWhoseProviderIsMissingIsCountedAsNotMeasuredNotDropped() {
        Cell cell = Cell.parse("WRITE:100M:10");
        Report report = new Report(List.of(sample(cell, "sluice", 1000), sample(cell, "sluice", 1000),
                sample(cell, "loop-gather", 2000), sample(cell, "loop-gather", 2000)));   // no rio, no loop

        String summary = Targets.summary(report);

        assertTrue(summary.contains("| write: sluice / rio speed >= 2.00 | met in 0 of 0, 1 not measured | - "
                + "| write 100 MiB x10 not measured |"), summary);
        assertTrue(summary.contains("| write: sluice / loop-gather speed >= 0.80 | **met in 1 of 1** |"), summary);
    }

    @Test
    void aFailedSampleMakesTheRowFailed() {
        Cell cell = Cell.parse("READ:1K:1");
        Report report = new Report(List.of(sample(cell, "rio", 1),
                new Sample(Sample.Origin.UNKNOWN, cell, "rio", 0, 1, 1, 1, 1, 1, 1, 1, Load.UNKNOWN,
                        "FAILED: wrong bytes")));
        Row rio = report.row(cell, "rio").orElseThrow();
        assertEquals("FAILED: wrong bytes", rio.failure());
        assertTrue(Double.isNaN(report.speedRatio(cell, "rio", "rio").value()));
        assertTrue(report.markdown().contains("FAILED: wrong bytes"));
    }

    @Test
    void stressOutputIsParsedIntoCompletedOrOom() {
        Stress.Result completed = Stress.parse("x", 0, List.of("noise", Stress.RESULT_PREFIX + "1.500 20.5 7 12 completed"), 2);
        assertEquals(List.of("completed", 1.5, 20.5, 7, 12), List.of(completed.outcome(), completed.seconds(),
                completed.peakHeapMiB(), completed.threadsBefore(), completed.peakThreads()));
        assertEquals("OOM (OutOfMemoryError) after 2.0 s (child JVM lifetime)", Stress.parse("x", 3,
                List.of("Terminating due to java.lang.OutOfMemoryError: Java heap space"), 2).outcome());
    }
}
