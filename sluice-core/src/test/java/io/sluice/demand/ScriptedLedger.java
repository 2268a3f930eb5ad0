package io.sluice.demand;

import io.sluice.internal.write.WriteLedger;

/**
 * One write's {@link WriteLedger} moved by hand, as a writer would move it: the test says when
 * items arrive and when they are written, all of one size, and {@link #ask()} records whatever the
 * controller returns as requested. The ledger's own {@link WriteLedger#nextRequest()} (the byte cap
 * and the never-stall rule) is left out, so a test sees the controller's rule alone, on the counts
 * the writer's ledger keeps.
 */
final class ScriptedLedger {

    private final WriteLedger ledger;
    private final long itemBytes;

    /**
     * Items of 1 KiB under a cap too large to matter.
     *
     * @param controller the controller under test; the ledger asks it and nothing else
     */
    ScriptedLedger(DemandController controller) {
        this(controller, 1024, Long.MAX_VALUE / 1024);
    }

    /**
     * Items of {@code itemBytes}, declared to the ledger, under a cap that holds {@code capItems}.
     *
     * @param controller the controller under test; the ledger asks it and nothing else
     * @param itemBytes every item's size
     * @param capItems what the ledger's {@link WriteLedger#capItems()} answers
     */
    ScriptedLedger(DemandController controller, long itemBytes, long capItems) {
        this.ledger = new WriteLedger(() -> controller, itemBytes * capItems, itemBytes);
        this.itemBytes = itemBytes;
    }

    /** Asks the controller and records a positive answer as requested; returns the answer. */
    long ask() {
        long n = ledger.controller().nextRequest(ledger);
        if (n > 0) {
            ledger.requested(n);
        }
        return n;
    }

    void receive(long items) {
        for (long i = 0; i < items; i++) {
            ledger.receive(itemBytes);
        }
    }

    void write(long items) {
        ledger.written(items, items * itemBytes);
    }

    long outstandingItems() {
        return ledger.outstandingItems();
    }

    long queuedItems() {
        return ledger.queuedItems();
    }
}
