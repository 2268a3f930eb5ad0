package io.sluice.bench.adaptive;

import io.sluice.demand.Demand;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 6's response target, on the model with the real controller: after each fast → slow
 * switch of the sink the window shrinks within one refill cycle; after slow → fast it grows back.
 */
class AdaptiveWindowResponseTest {

    @ParameterizedTest
    @ValueSource(ints = {1024, 64 * 1024})
    void windowShrinksWithinOneRefillCycleAndGrowsBack(int itemBytes) {
        Scenario scenario = Scenario.crossingSink(itemBytes, 1.0);
        RunResult run = DemandSimulation.run(scenario, new StrategyCase("adaptive", Demand.adaptive()),
                ModelCosts.buildMachine(), 7);
        List<WindowResponse.Switch> switches = WindowResponse.switches(scenario, run);
        assertFalse(switches.isEmpty());
        assertTrue(switches.stream().anyMatch(WindowResponse.Switch::toSlower));
        assertTrue(switches.stream().anyMatch(s -> !s.toSlower()));
        for (WindowResponse.Switch s : switches) {
            assertTrue(s.reactionNanos() >= 0, "the window reacted to " + s);
            if (s.toSlower()) {
                assertTrue(s.refillCycles() <= 1.0, "shrank within one refill cycle: " + s);
                assertTrue(s.windowAfter() < s.windowBefore(), s.toString());
            } else {
                assertTrue(s.reactionNanos() < Scenario.SINK_PERIOD_MILLIS * 1_000_000L,
                        "grew back within the fast phase: " + s);
                assertTrue(s.windowAfter() > s.windowBefore(), s.toString());
            }
        }
    }
}
