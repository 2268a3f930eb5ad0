package io.sluice.demand;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DemandStrategyTest {

    /** The paper's constants: amount at least 3, shift in [1, 3], factors 2, no byte floor. */
    private static final AdaptiveDemand PAPER = Demand.adaptive()
            .withAmount(16, 3, 1024)
            .withShift(1, 1, 3)
            .withFactors(2, 2)
            .withMinBatchBytes(0);

    @Test
    void fixedReproducesThePapersWorkedExample() {
        // "if the amount is 100 and the shift value is 2, then the greed will request the next
        // 100 items when it received the notification about the 98th processed item"
        DemandController controller = Demand.fixed(100, 2).newController();
        ScriptedLedger state = new ScriptedLedger(controller);
        assertEquals(100, state.ask());
        for (int item = 1; item <= 97; item++) {
            state.receive(1);
            state.write(1);
            assertEquals(0, state.ask(), "no request at item " + item);
        }
        state.receive(1);
        state.write(1);
        assertEquals(100, state.ask(), "the next 100 at the 98th item");
    }

    @Test
    void fixedDoesNotDriftOverManyCycles() {
        DemandController controller = Demand.fixed(100, 2).newController();
        ScriptedLedger state = new ScriptedLedger(controller);
        state.ask();
        for (int i = 0; i < 100_000; i++) {
            state.receive(1);
            state.write(1);
            state.ask();
            long outstanding = state.outstandingItems();
            assertTrue(outstanding <= 102, "outstanding " + outstanding + " after item " + i);
        }
    }

    @Test
    void fixedWaitsForWrittenItemsWhenTheChannelLags() {
        DemandController controller = Demand.fixed(100, 2).newController();
        ScriptedLedger state = new ScriptedLedger(controller);
        state.ask();
        state.receive(100); // all arrived, none written: the channel lags
        assertEquals(0, state.ask());
        state.write(97); // 3 still queued > shift
        assertEquals(0, state.ask());
        state.write(1); // 2 queued = shift
        assertEquals(100, state.ask());
        assertTrue(state.queuedItems() + state.outstandingItems() <= 102);
    }

    @Test
    void adaptiveRequestsAtThePapersEligiblePointAndGrowsWhenTheChannelKeepsUp() {
        // rules (2)-(4): queue < shift at the eligible point doubles amount, shift + 1
        DemandController controller =
                PAPER.withAmount(100, 3, 1024).withShift(2, 1, 3).newController();
        ScriptedLedger state = new ScriptedLedger(controller);
        assertEquals(100, state.ask());
        for (int item = 1; item <= 97; item++) {
            state.receive(1);
            state.write(1);
            assertEquals(0, state.ask());
        }
        state.receive(1);
        state.write(1);
        assertEquals(200, state.ask(), "grown amount requested at the 98th item");
        assertEquals("adaptive amount=200 shift=3", controller.describe());
        assertEquals(203, controller.windowItems());
    }

    @Test
    void adaptiveShrinksWhenTheChannelLags() {
        // rules (5)-(7): queue > shift halves amount (not below 3) and shift - 1 (not below 1)
        DemandController controller = PAPER.withAmount(100, 3, 1024)
                .withShift(2, 1, 3)
                .withMinBatchBytes(0)
                .newController();
        ScriptedLedger state = new ScriptedLedger(controller);
        state.ask();
        state.receive(98); // eligible point, nothing written: queue 98 > 2
        assertEquals(0, state.ask(), "the refill waits for room");
        assertEquals("adaptive amount=50 shift=1", controller.describe());
        state.receive(2);
        state.write(99); // held = 1 <= shift
        assertEquals(50, state.ask());
    }

    @Test
    void adaptiveKeepsItsParametersWhenBalanced() {
        DemandController controller =
                PAPER.withAmount(100, 3, 1024).withShift(2, 1, 3).newController();
        ScriptedLedger state = new ScriptedLedger(controller);
        state.ask();
        state.receive(98);
        state.write(96); // queue 2 = shift
        assertEquals(0, state.ask());
        assertEquals("adaptive amount=100 shift=2", controller.describe());
    }

    @Test
    void adaptiveAmountStaysWithinItsBoundsAndTheByteFloor() {
        AdaptiveDemand strategy = PAPER.withShift(1, 1, 2).withAmount(16, 3, 64).withMinBatchBytes(8 * 1024);
        DemandController growing = strategy.newController();
        ScriptedLedger fast = new ScriptedLedger(growing);
        fast.ask();
        for (int i = 0; i < 10_000; i++) {
            fast.receive(fast.outstandingItems());
            fast.write(fast.queuedItems());
            fast.ask();
        }
        assertEquals("adaptive amount=64 shift=2", growing.describe());

        DemandController shrinking = strategy.newController();
        ScriptedLedger slow = new ScriptedLedger(shrinking); // 1 KiB items: a floor of 8 items
        slow.ask();
        for (int cycle = 0; cycle < 20; cycle++) {
            slow.receive(slow.outstandingItems()); // everything arrives before anything is written
            slow.ask();
            slow.write(slow.queuedItems());
            slow.ask();
        }
        assertEquals("adaptive amount=8 shift=1", shrinking.describe());
    }

    @Test
    void adaptiveNeverGrowsPastWhatTheByteCapLetsTheWriterHold() {
        // 64 KiB items under the default 1 MiB cap: the writer can hold 16. A channel that empties
        // the queue before every eligible point must not grow the window past that.
        DemandController controller = Demand.adaptive().newController();
        ScriptedLedger state = new ScriptedLedger(controller, 64 * 1024, 16);
        state.ask();
        for (int cycle = 0; cycle < 50; cycle++) {
            state.receive(state.outstandingItems());
            state.write(state.queuedItems()); // the whole queue in one gathering write
            state.ask();
        }
        assertEquals("adaptive amount=16 shift=1", controller.describe());
        assertEquals(17, controller.windowItems());

        DemandController roomy = Demand.adaptive().newController();
        ScriptedLedger wide = new ScriptedLedger(roomy, 1024, 1024); // 1 KiB items: the cap admits 1,024
        wide.ask();
        for (int cycle = 0; cycle < 50; cycle++) {
            wide.receive(wide.outstandingItems());
            wide.write(wide.queuedItems());
            wide.ask();
        }
        assertEquals("adaptive amount=1023 shift=1", roomy.describe(), "grows up to the cap, less the shift");
    }

    @Test
    void theDefaultsAreTheSweepsChoice() {
        AdaptiveDemand defaults = Demand.adaptive();
        assertEquals(16, defaults.initialAmount());
        assertEquals(16, defaults.minAmount());
        assertEquals(1024, defaults.maxAmount());
        assertEquals(1, defaults.minShift());
        assertEquals(1, defaults.maxShift());
        assertEquals(4, defaults.growthFactor());
        assertEquals(4, defaults.shrinkFactor());
        assertEquals(256 * 1024, defaults.minBatchBytes());
    }

    @Test
    void oneByOneRequestsOneAfterEachWrite() {
        DemandController controller = Demand.oneByOne().newController();
        ScriptedLedger state = new ScriptedLedger(controller);
        assertEquals(1, state.ask());
        state.receive(1);
        assertEquals(0, state.ask(), "not before the item is written");
        state.write(1);
        assertEquals(1, state.ask());
        assertEquals(1, controller.windowItems());
    }

    @Test
    void unboundedRequestsEverythingOnce() {
        DemandController controller = Demand.unbounded().newController();
        ScriptedLedger state = new ScriptedLedger(controller);
        assertEquals(Long.MAX_VALUE, state.ask());
        state.receive(1_000_000);
        assertEquals(0, state.ask());
        assertEquals(Long.MAX_VALUE, controller.windowItems());
    }

    @Test
    void badParametersAreRejectedNamingTheArgumentAndValue() {
        assertMessage("amount must be at least 1, was 0", () -> Demand.fixed(0, 0));
        assertMessage("shift must not be negative, was -1", () -> Demand.fixed(4, -1));
        assertMessage("shift must be less than amount, was shift=4 >= amount=4", () -> Demand.fixed(4, 4));
        assertMessage(
                "minAmount must be at least 1, was 0", () -> Demand.adaptive().withAmount(1, 0, 4));
        assertMessage(
                "initialAmount must be within [3, 8], was 9",
                () -> Demand.adaptive().withAmount(9, 3, 8));
        assertMessage("maxShift must not exceed minAmount=2, was 3", () -> PAPER.withAmount(3, 2, 8));
        assertMessage(
                "growthFactor must be at least 2, was 1",
                () -> Demand.adaptive().withFactors(1, 2));
        assertMessage(
                "minBatchBytes must not be negative, was -1",
                () -> Demand.adaptive().withMinBatchBytes(-1));
    }

    private static void assertMessage(String expected, Runnable call) {
        IllegalArgumentException exception = assertThrows(IllegalArgumentException.class, call::run);
        assertEquals(expected, exception.getMessage());
    }
}
