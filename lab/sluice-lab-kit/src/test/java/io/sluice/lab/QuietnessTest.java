package io.sluice.lab;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class QuietnessTest {

    static Load busy(double share) {
        return new Load(0.1, 0.2, share);
    }

    @Test
    void aRunIsQuietWhenEveryLoadIsKnownAndNoneAboveTheLine() {
        Quietness quietness = Quietness.of("sample", List.of(busy(0.02), busy(0.25), busy(0.10)));

        assertTrue(quietness.quiet());
        assertEquals(
                "quiet: other work kept at most 25% of the cores busy during a sample (0 of 3 samples above 25%)",
                quietness.inWords());
    }

    @Test
    void oneMeasurementAboveTheLineMakesTheRunNoisy() {
        Quietness quietness = Quietness.of("lane", List.of(busy(0.02), busy(0.26)));

        assertFalse(quietness.quiet());
        assertEquals(
                "NOISY: other work kept at most 26% of the cores busy during a lane (1 of 2 lanes above 25%)",
                quietness.inWords());
    }

    @Test
    void aMeasurementWithoutALoadLeavesTheMachineUnknownAndTheRunNotQuiet() {
        Quietness quietness = Quietness.of("thread count", List.of(busy(0.02), Load.UNKNOWN));

        assertFalse(quietness.quiet());
        assertEquals(
                "machine unknown (other work's share of the cores not recorded for 1 of 2 thread counts)",
                quietness.inWords());
    }

    @Test
    void runsTogetherCountEveryMeasurementOnceAndOneNoisyRunMakesThemNoisy() {
        Quietness quiet = Quietness.of("cell", List.of(busy(0.02), busy(0.03)));
        Quietness noisy = Quietness.of("cell", List.of(busy(0.30)));
        Quietness unknown = Quietness.of("cell", List.of(Load.UNKNOWN));

        Quietness both = Quietness.together("cell", List.of(quiet, noisy));
        assertEquals(new Quietness("cell", 3, 0, 1, 0.30), both);
        assertFalse(both.quiet());
        assertTrue(Quietness.together("cell", List.of(quiet, quiet)).quiet());
        assertEquals(
                "machine unknown (other work's share of the cores not recorded for 1 of 3 cells)",
                Quietness.together("cell", List.of(quiet, unknown)).inWords());
    }
}
