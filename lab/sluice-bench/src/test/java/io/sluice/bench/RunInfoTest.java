package io.sluice.bench;

import io.sluice.lab.Load;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A run is quiet, NOISY or unknown from the load its cells recorded. */
class RunInfoTest {

    private static Sample sample(String cell, int fork, Load load) {
        return new Sample(
                new Sample.Origin("abc1234", "17.0.15", "quick"),
                Cell.parse(cell),
                "loop",
                fork,
                0,
                1,
                1,
                1,
                1,
                1,
                1,
                load,
                "OK");
    }

    @Test
    void aRunIsQuietWhenNoCellHadOtherWorkAboveTheThreshold() {
        RunInfo run = RunInfo.of(List.of(
                sample("READ:1M:1", 0, new Load(3.0, 4.0, 0.25)), sample("READ:1M:10", 0, new Load(0.5, 9.0, 0.02))));

        assertTrue(run.quiet(), "a high load average alone, the bench's own threads, does not make a run noisy");
        assertFalse(run.noisy());
        assertEquals(
                "Commit abc1234, JDK 17.0.15, profile quick; quiet: other work kept at most 25% of the cores busy during"
                        + " a cell (0 of 2 cells above 25%).",
                run.line());
    }

    @Test
    void oneCellWithOtherWorkAboveTheThresholdMakesTheRunNoisy() {
        RunInfo run = RunInfo.of(List.of(
                sample("READ:1M:1", 0, new Load(0.1, 0.1, 0.01)), sample("READ:1M:1", 1, new Load(0.1, 0.1, 0.26))));

        assertTrue(run.noisy());
        assertFalse(run.quiet());
        assertEquals(2, run.cells(), "a cell of each fork");
        assertTrue(
                run.quietness()
                        .inWords()
                        .equals(
                                "NOISY: other work kept at most 26% of the cores busy during a cell (1 of 2 cells above 25%)"),
                run.quietness().inWords());
    }

    @Test
    void aProviderThatCouldNotBeCreatedLeavesItsCellsLoadKnown() {
        RunInfo run =
                RunInfo.of(List.of(sample("READ:1M:1", 0, Load.UNKNOWN), sample("READ:1M:1", 0, new Load(0, 0, 0))));

        assertTrue(run.quiet(), run.quietness().inWords());
    }

    @Test
    void samplesWithoutLoadLeaveTheRunUnknown() {
        RunInfo run =
                RunInfo.of(List.of(sample("READ:1M:1", 0, Load.UNKNOWN), sample("READ:1M:10", 0, new Load(0, 0, 0))));

        assertFalse(run.quiet());
        assertFalse(run.noisy());
        assertEquals(
                "machine unknown (other work's share of the cores not recorded for 1 of 2 cells)",
                run.quietness().inWords());
    }
}
