package io.sluice.bench.adaptive;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ScheduleOnlyTest {

    private static final long S = 1_000_000_000L;
    private static final double MIB = RateSchedule.MIB;

    @Test
    void constantEndsMoveAtTheSlowerRate() {
        assertEquals(
                40 * MIB * 3,
                ScheduleOnly.bytes(RateSchedule.constantMiBps(40), RateSchedule.constantMiBps(1000), 3 * S),
                1);
        assertEquals(40.0, ScheduleOnly.mibPerSecond(Scenario.slowProducer(1024, 1.0)), 1e-9);
    }

    @Test
    void stepsIntegrateTheSlowerEndPhaseByPhase() {
        // crossing-sink: producer 120, sink 200 for 2 s then 20 for 2 s: 120·2 + 20·2 + 120·2 in 6 s
        assertEquals((240 + 40 + 240) / 6.0, ScheduleOnly.mibPerSecond(Scenario.crossingSink(64 * 1024, 1.0)), 1e-9);
        // variable-sink: producer 300 never the slower end: 200·2 + 20·2 + 200·2 in 6 s
        assertEquals(140.0, ScheduleOnly.mibPerSecond(Scenario.variableSink(1024, 1.0)), 1e-9);
        // a run that ends inside a phase counts only its part: 1 s of 200, then 0.5 s of 20
        assertEquals(
                200 * MIB + 10 * MIB,
                ScheduleOnly.bytes(RateSchedule.constantMiBps(300), RateSchedule.stepsMiBps(200, 20, 1000), 3 * S / 2),
                1);
    }

    @Test
    void stallsCarryNothingAndBothSchedulesChangeIndependently() {
        // producer 250 for 1.5 s then 40; sink stalled 0.3 s, 200 for 1.7 s, stalled 0.3 s, 20 for 1.7 s.
        // 0-0.3: 0; 0.3-1.5: min(250, 200) = 200 for 1.2 s; 1.5-2.0: min(40, 200) = 40 for 0.5 s;
        // 2.0-2.3: 0; 2.3-3.0: min(40, 20) = 20 for 0.7 s; 3.0-4.0: min(250, 20) = 20 for 1 s.
        double expected = 200 * 1.2 + 40 * 0.5 + 20 * 0.7 + 20 * 1.0;
        assertEquals(expected / 4, ScheduleOnly.mibPerSecond(Scenario.bothVariable(1024, 1.0)), 1e-9);
    }

    @Test
    void familiesAreNamesWithoutTheItemSize() {
        assertEquals("variable-sink", Scenario.family("variable-sink-64k"));
        assertEquals(
                "both-variable",
                Scenario.family(Scenario.bothVariable(1024, 1.0).name()));
        assertEquals(
                "crossing-sink",
                Scenario.family(Scenario.crossingSink(1000, 1.0).name()));
        assertEquals(
                "slow-producer",
                Scenario.family(Scenario.slowProducer(1024, 1.0).name()));
    }
}
