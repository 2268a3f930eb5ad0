package io.sluice.internal.write;

import io.sluice.demand.Demand;
import io.sluice.demand.DemandController;
import io.sluice.demand.DemandState;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The writer's rules, driven directly: no writer, no thread, no clock. */
class WriteLedgerTest {

    @Test
    void probesWithOneItemThenFillsTheCapAtTheLargestItemSeen() {
        WriteLedger ledger = new WriteLedger(() -> new FixedController(100), 1000, 0);
        assertEquals(1, ledger.nextRequest(), "one item before the size is known");
        ledger.requested(1);
        assertTrue(ledger.mayReceive());
        assertEquals(0, ledger.receive(100));
        assertFalse(ledger.mayReceive(), "§1.1: nothing more was requested");
        assertEquals(9, ledger.nextRequest(), "(1000 - 100) / 100 - 0 outstanding");
        ledger.requested(9);
        ledger.written(1, 100);
        assertEquals(1, ledger.writtenItems());
        assertEquals(0, ledger.queuedBytes());
        assertEquals(1, ledger.nextRequest(), "9 outstanding of a cap of 10");
        assertEquals(10, ledger.capItems());
    }

    @Test
    void aLargerItemReportsTheDemandGrantedForSmallerOnes() {
        WriteLedger ledger = new WriteLedger(() -> new FixedController(100), 1000, 0);
        ledger.requested(1);
        ledger.receive(100);
        ledger.requested(5);
        assertEquals(4, ledger.receive(300), "4 items still outstanding were granted at 100 bytes each");
        assertEquals(0, ledger.receive(300), "not larger than the largest seen");
        assertEquals(700, ledger.queuedBytes());
        assertEquals(300, ledger.largestItemBytes());
    }

    @Test
    void neverStallsWhateverTheControllerSays() {
        WriteLedger ledger = new WriteLedger(() -> new FixedController(0), 1000, 0);
        assertEquals(1, ledger.nextRequest(), "nothing queued or outstanding: one item");
        ledger.requested(1);
        assertEquals(0, ledger.nextRequest(), "one outstanding: the controller's 0 stands");
    }

    @Test
    void unboundedIgnoresTheCapAndTheTotalSaturates() {
        WriteLedger ledger = new WriteLedger(Demand.unbounded(), 10, 0);
        long n = ledger.nextRequest();
        assertEquals(Long.MAX_VALUE, n);
        ledger.requested(n);
        ledger.requested(5);
        assertEquals(Long.MAX_VALUE, ledger.requestedItems());
        assertEquals(Long.MAX_VALUE, ledger.outstandingItems());
    }

    @Test
    void aDeclaredSizeIsAssumedFromTheStartAndEnforced() {
        WriteLedger ledger = new WriteLedger(() -> new FixedController(100), 1000, 250);
        assertEquals(4, ledger.nextRequest(), "1000 / 250 before any item");
        assertTrue(ledger.exceedsDeclared(251));
        assertFalse(ledger.exceedsDeclared(250));
    }

    @Test
    void aNegativeRequestNamesTheController() {
        WriteLedger ledger = new WriteLedger(() -> new FixedController(-3), 1000, 0);
        IllegalStateException exception = assertThrows(IllegalStateException.class, ledger::nextRequest);
        assertTrue(exception.getMessage().contains("returned -3"), exception.getMessage());
    }

    @Test
    void refusesAnItemBeyondTheRequestedTotalOrTheDeclaredSize() {
        WriteLedger ledger = new WriteLedger(() -> new FixedController(100), 1000, 250);
        RuntimeException beyond = ledger.refusal(10, "write to x");
        assertTrue(
                beyond instanceof IllegalStateException
                        && beyond.getMessage().startsWith("§1.1: upstream sent item #1"),
                String.valueOf(beyond));
        ledger.requested(1);
        RuntimeException larger = ledger.refusal(251, "write to x");
        assertTrue(
                larger instanceof IllegalArgumentException
                        && larger.getMessage().contains("more than the 250 declared"),
                String.valueOf(larger));
        assertEquals(null, ledger.refusal(250, "write to x"));
    }

    @Test
    void badLimitsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new WriteLedger(Demand.adaptive(), 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new WriteLedger(Demand.adaptive(), 10, -1));
    }

    @Test
    void passAndBatchLimits() {
        assertEquals(WriteLedger.MAX_BATCH_ITEMS, WriteLedger.batchItems(0));
        assertEquals(24, WriteLedger.batchItems(WriteLedger.YIELD_AFTER_ITEMS - 24));
        assertEquals(0, WriteLedger.batchItems(WriteLedger.YIELD_AFTER_ITEMS));
        assertFalse(WriteLedger.passDone(WriteLedger.YIELD_AFTER_BYTES - 1, 0));
        assertTrue(WriteLedger.passDone(WriteLedger.YIELD_AFTER_BYTES, 0));
        assertTrue(WriteLedger.passDone(0, WriteLedger.YIELD_AFTER_ITEMS));
    }

    private record FixedController(long answer) implements DemandController {
        @Override
        public long nextRequest(DemandState state) {
            return answer;
        }

        @Override
        public long windowItems() {
            return Long.MAX_VALUE;
        }

        @Override
        public String describe() {
            return "fixed answer " + answer;
        }
    }
}
