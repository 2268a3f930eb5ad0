package io.sluice.bench.adaptive;

import io.sluice.demand.DemandController;
import io.sluice.demand.DemandState;

/**
 * Drives a controller by hand, item by item: the test decides when an item arrives and when one
 * is written, and forwards whatever the controller asks for (no byte cap), so the controller's own
 * rule is what the assertions see.
 */
final class ScriptedWrite implements DemandState {

    private final DemandController controller;
    private long requested;
    private long received;
    private long written;
    private long requestCalls;

    ScriptedWrite(DemandController controller) {
        this.controller = controller;
    }

    /** Asks the controller and forwards its answer; returns it. */
    long ask() {
        long n = controller.nextRequest(this);
        if (n < 0) {
            throw new AssertionError("negative request " + n + " from " + controller.describe());
        }
        if (n > 0) {
            long total = requested + n;
            requested = total < 0 ? Long.MAX_VALUE : total;
            requestCalls++;
        }
        return n;
    }

    /** One item arrives (it must have been requested). */
    void receive() {
        if (received == requested) {
            throw new AssertionError("§1.1: nothing outstanding to receive; " + controller.describe());
        }
        received++;
    }

    /** One queued item is written. */
    void writeOne() {
        if (written == received) {
            throw new AssertionError("nothing queued to write");
        }
        written++;
    }

    long held() {
        return queuedItems() + outstandingItems();
    }

    long requestCalls() {
        return requestCalls;
    }

    DemandController controller() {
        return controller;
    }

    @Override
    public long requestedItems() {
        return requested;
    }

    @Override
    public long receivedItems() {
        return received;
    }

    @Override
    public long writtenItems() {
        return written;
    }

    @Override
    public long queuedBytes() {
        return queuedItems() * 1024;
    }

    @Override
    public long largestItemBytes() {
        return received == 0 ? 0 : 1024;
    }

    @Override
    public long requestLimit() {
        return Long.MAX_VALUE;
    }
}
