package io.sluice.bench.adaptive;

import io.sluice.demand.DemandController;
import io.sluice.demand.DemandStrategy;
import io.sluice.internal.write.WriteLedger;

/**
 * Drives a controller by hand, item by item, on the writer's own {@link WriteLedger}: the test
 * decides when an item arrives and when one is written, and forwards whatever the controller asks
 * for (no byte cap, no never-stall rule), so the controller's own rule is what the assertions see.
 */
final class ScriptedWrite {

    /** The size of every item. */
    private static final long ITEM_BYTES = 1024;

    private final WriteLedger ledger;

    ScriptedWrite(DemandStrategy strategy) {
        this.ledger = new WriteLedger(strategy, Long.MAX_VALUE, ITEM_BYTES);
    }

    /** Asks the controller and forwards its answer; returns it. */
    long ask() {
        long n = controller().nextRequest(ledger);
        if (n < 0) {
            throw new AssertionError(
                    "negative request " + n + " from " + controller().describe());
        }
        if (n > 0) {
            ledger.requested(n);
        }
        return n;
    }

    /** One item arrives (it must have been requested). */
    void receive() {
        if (!ledger.mayReceive()) {
            throw new AssertionError(
                    "§1.1: nothing outstanding to receive; " + controller().describe());
        }
        ledger.receive(ITEM_BYTES);
    }

    /** One queued item is written. */
    void writeOne() {
        if (ledger.queuedItems() == 0) {
            throw new AssertionError("nothing queued to write");
        }
        ledger.written(1, ITEM_BYTES);
    }

    long held() {
        return ledger.queuedItems() + ledger.outstandingItems();
    }

    long outstandingItems() {
        return ledger.outstandingItems();
    }

    long queuedItems() {
        return ledger.queuedItems();
    }

    DemandController controller() {
        return ledger.controller();
    }
}
