package io.sluice.server.load;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.PrimitiveIterator;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WarmUpTest {

    /** A slice that answers {@code okPerSecond[i]} x its length on its i-th run and records the lengths. */
    private static WarmUp.Slice scripted(List<Duration> lengths, long... okPerSecond) {
        PrimitiveIterator.OfLong rates = LongStream.of(okPerSecond).iterator();
        return length -> {
            lengths.add(length);
            long ok = rates.nextLong() * length.toSeconds();
            return new Traffic(ok, ok * 16384, 0, 0, 1, 2, 3);
        };
    }

    @Test
    void aRiseOfMoreThanFivePercentIsNotSteady() {
        assertFalse(WarmUp.steady(19_086, 23_666));
        assertTrue(WarmUp.steady(23_666, 24_193)); // 2.2%
        assertTrue(WarmUp.steady(24_193, 23_000)); // a dip is steady too
    }

    @Test
    void runsUntilTheRateStopsRisingAfterTheMinimum() throws Exception {
        List<Duration> lengths = new ArrayList<>();
        // lane C's A1 warm-up as measured, in 5 s slices
        WarmUp.Outcome outcome = WarmUp.run(
                scripted(lengths, 6_000, 12_000, 19_000, 22_500, 23_500, 23_700),
                Duration.ofSeconds(15),
                Duration.ofSeconds(45));
        assertTrue(outcome.steady());
        assertEquals(25, outcome.seconds(), 1e-9); // 22,500 -> 23,500 is the first rise under 5%
        assertEquals(23_500, outcome.lastRate(), 1e-9);
        assertEquals(5, lengths.size());
        assertTrue(lengths.stream().allMatch(WarmUp.SLICE::equals));
        assertEquals("warm-up 25 s (steady at 23,500 req/s)", outcome.describe());
    }

    @Test
    void aSteadyRateBeforeTheMinimumDoesNotEndIt() throws Exception {
        List<Duration> lengths = new ArrayList<>();
        WarmUp.Outcome outcome = WarmUp.run(
                scripted(lengths, 4_000, 4_000, 4_000, 4_000), Duration.ofSeconds(15), Duration.ofSeconds(45));
        assertTrue(outcome.steady());
        assertEquals(15, outcome.seconds(), 1e-9);
    }

    @Test
    void stopsAtTheMaximumWhileStillRisingAndSaysSo() throws Exception {
        List<Duration> lengths = new ArrayList<>();
        WarmUp.Outcome outcome = WarmUp.run(
                scripted(lengths, 1_000, 2_000, 3_000, 4_000, 5_000), Duration.ofSeconds(5), Duration.ofSeconds(20));
        assertFalse(outcome.steady());
        assertEquals(20, outcome.seconds(), 1e-9);
        assertEquals(4, lengths.size());
        assertTrue(outcome.describe().contains("stopped"), outcome.describe());
    }

    @Test
    void aMaximumShorterThanASliceRunsOneSliceOfThatLength() throws Exception {
        List<Duration> lengths = new ArrayList<>();
        WarmUp.Outcome outcome = WarmUp.run(scripted(lengths, 500), Duration.ofSeconds(1), Duration.ofSeconds(1));
        assertEquals(List.of(Duration.ofSeconds(1)), lengths);
        assertFalse(outcome.steady());
        assertEquals(500, outcome.lastRate(), 1e-9);
    }
}
