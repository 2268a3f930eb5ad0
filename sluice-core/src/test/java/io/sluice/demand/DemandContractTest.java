package io.sluice.demand;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * One contract, every strategy: requests are never negative, a write never stalls (nothing queued
 * and nothing outstanding means a request), and a bounded strategy's request keeps held items
 * (queued + outstanding) within its window (W3). Random producer and channel progress, seeded.
 */
class DemandContractTest {

    static Stream<Arguments> strategies() {
        return Stream.of(
                Arguments.of("adaptive", Demand.adaptive()),
                Arguments.of(
                        "adaptive small", Demand.adaptive().withShift(1, 1, 2).withAmount(3, 3, 12)),
                Arguments.of("fixed(16, 4)", Demand.fixed(16, 4)),
                Arguments.of("fixed(100, 2)", Demand.fixed(100, 2)),
                Arguments.of("fixed(1, 0)", Demand.fixed(1, 0)),
                Arguments.of("oneByOne", Demand.oneByOne()),
                Arguments.of("unbounded", Demand.unbounded()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("strategies")
    void neverNegativeNeverStalledAlwaysWithinTheWindow(String name, DemandStrategy strategy) {
        for (long seed = 0; seed < 50; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            DemandController controller = strategy.newController();
            ScriptedLedger state = new ScriptedLedger(controller);
            long maxWindow = 0;
            for (int step = 0; step < 2_000; step++) {
                long before = state.queuedItems() + state.outstandingItems();
                long n = state.ask();
                if (n < 0) {
                    fail(name + " seed " + seed + ": negative request " + n);
                }
                if (before == 0 && n == 0) {
                    fail(name + " seed " + seed + " step " + step + ": stalled with nothing queued or outstanding");
                }
                long window = controller.windowItems();
                maxWindow = Math.max(maxWindow, window);
                if (n > 0 && window != Long.MAX_VALUE) {
                    long held = state.queuedItems() + state.outstandingItems();
                    assertTrue(
                            held <= window,
                            name + " seed " + seed + ": held " + held + " after requesting " + n + " exceeds window "
                                    + window);
                }
                if (window != Long.MAX_VALUE) {
                    long held = state.queuedItems() + state.outstandingItems();
                    assertTrue(held <= maxWindow, name + ": held " + held + " above every window " + maxWindow);
                }
                // random progress: the producer delivers some outstanding items, the channel writes some
                long outstanding = state.outstandingItems();
                if (outstanding > 0 && random.nextBoolean()) {
                    state.receive(Math.min(outstanding, 1 + random.nextInt(64)));
                }
                long queued = state.queuedItems();
                if (queued > 0 && random.nextBoolean()) {
                    state.write(1 + random.nextLong(queued));
                }
            }
        }
    }
}
