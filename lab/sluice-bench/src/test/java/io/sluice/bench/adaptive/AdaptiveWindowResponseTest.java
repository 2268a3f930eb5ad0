package io.sluice.bench.adaptive;

import io.sluice.demand.AdaptiveDemand;
import io.sluice.demand.Demand;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The adaptive response target, on the model with the real controller: after each fast → slow
 * switch of the sink the window shrinks within one refill cycle; after slow → fast it grows back.
 *
 * <p>Run with explicit constants, so that the test does not change meaning when the defaults do:
 * the paper's (amount 16 in [4, 1024], shift 1 in [1, 3], factors 2, 64 KiB floor) and the
 * recommended ones ({@link StrategyCase#recommendedAdaptive()}). Checked for 64 KiB items only:
 * with 1 KiB items at 120 MiB/s (8 us apart) and a drain that runs tens of microseconds after a
 * signal, the queue at the eligible point is rarely below {@code shift = 1}, so in the model the
 * rule never sees "the channel is faster" and the window stays at its byte floor, with nothing to
 * shrink (lab/docs/ADAPTIVE.md, §7 and §8: a finding about the rule, not the model). The window can
 * never exceed what the byte cap lets the writer hold; with the recommended constants 64 KiB items
 * fill the default 1 MiB cap at the floor (16 items), so their response is checked under an 8 MiB
 * cap, and pinned under the default one.
 */
class AdaptiveWindowResponseTest {

    private static final AdaptiveDemand PAPER_CONSTANTS = Demand.adaptive()
            .withShift(1, 1, 1)
            .withAmount(16, 4, 1024)
            .withShift(1, 1, 3)
            .withFactors(2, 2)
            .withMinBatchBytes(64 * 1024);

    @ParameterizedTest
    @ValueSource(ints = {64 * 1024})
    void windowShrinksWithinOneRefillCycleAfterTheSinkSlowsDown(int itemBytes) {
        assertShrinks(switches(itemBytes, PAPER_CONSTANTS));
    }

    @ParameterizedTest
    @ValueSource(ints = {64 * 1024})
    void recommendedWindowShrinksAndGrowsBackWhereTheByteCapLeavesRoom(int itemBytes) {
        // 8 MiB = 128 items of 64 KiB: room above the 256 KiB floor (4 items, minAmount 16)
        Scenario crossing = Scenario.crossingSink(itemBytes, 1.0);
        Scenario scenario = new Scenario(
                crossing.name(),
                crossing.producer(),
                crossing.sink(),
                itemBytes,
                crossing.durationNanos(),
                crossing.emission(),
                8L * 1024 * 1024);
        List<WindowResponse.Switch> switches = switches(scenario, StrategyCase.recommendedAdaptive());
        assertShrinks(switches);
        assertGrows(switches);
    }

    @ParameterizedTest
    @ValueSource(ints = {64 * 1024})
    void underTheDefaultCapTheWindowStaysWhereTheCapPinsIt(int itemBytes) {
        // 1 MiB / 64 KiB = 16 items = the recommended minAmount: the cap, not the window, bounds
        // the write, and the window must not report more than the writer can hold.
        Scenario scenario = Scenario.crossingSink(itemBytes, 1.0);
        RunResult run = DemandSimulation.run(
                scenario, new StrategyCase("adaptive", StrategyCase.recommendedAdaptive()), TestCosts.TYPICAL, 7);
        assertFalse(run.series().isEmpty());
        for (RunResult.Sample sample : run.series()) {
            assertTrue(sample.windowItems() <= 17, "window " + sample.windowItems() + " beyond the cap's 16 + shift");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {64 * 1024})
    void windowGrowsBackAfterTheSinkSpeedsUp(int itemBytes) {
        assertGrows(switches(itemBytes, PAPER_CONSTANTS));
    }

    private static void assertShrinks(List<WindowResponse.Switch> switches) {
        assertTrue(switches.stream().anyMatch(WindowResponse.Switch::toSlower));
        for (WindowResponse.Switch s : switches) {
            if (s.toSlower()) {
                assertTrue(s.reactionNanos() >= 0, "the window reacted to " + s);
                assertTrue(s.refillCycles() <= 1.0, "shrank within one refill cycle: " + s);
                assertTrue(s.windowAfter() < s.windowBefore(), s.toString());
            }
        }
    }

    private static void assertGrows(List<WindowResponse.Switch> switches) {
        assertTrue(switches.stream().anyMatch(windowSwitch -> !windowSwitch.toSlower()));
        for (WindowResponse.Switch s : switches) {
            if (!s.toSlower()) {
                assertTrue(s.reactionNanos() >= 0, "the window reacted to " + s);
                assertTrue(
                        s.reactionNanos() < Scenario.SINK_PERIOD_MILLIS * 1_000_000L,
                        "grew back within the fast phase: " + s);
                assertTrue(s.windowAfter() > s.windowBefore(), s.toString());
            }
        }
    }

    private static List<WindowResponse.Switch> switches(int itemBytes, AdaptiveDemand strategy) {
        return switches(Scenario.crossingSink(itemBytes, 1.0), strategy);
    }

    private static List<WindowResponse.Switch> switches(Scenario scenario, AdaptiveDemand strategy) {
        RunResult run = DemandSimulation.run(scenario, new StrategyCase("adaptive", strategy), TestCosts.TYPICAL, 7);
        List<WindowResponse.Switch> switches = WindowResponse.switches(scenario, run);
        assertFalse(switches.isEmpty());
        return switches;
    }
}
