package io.sluice.demand;

/** A scripted {@link DemandState}: the test moves the counters like a writer would. */
final class FakeState implements DemandState {
    long requested;
    long received;
    long written;
    long queuedBytes;
    long largestItemBytes = 1024;
    long limit = Long.MAX_VALUE;
    long capItems = Long.MAX_VALUE;

    /** Asks the controller, and "requests" what it returns, as the writer does. */
    long ask(DemandController controller) {
        long n = controller.nextRequest(this);
        if (n > 0) {
            requested = requested + n < 0 ? Long.MAX_VALUE : requested + n;
        }
        return n;
    }

    void receive(long items) {
        received += items;
    }

    void write(long items) {
        written += items;
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
        return queuedBytes;
    }

    @Override
    public long largestItemBytes() {
        return largestItemBytes;
    }

    @Override
    public long requestLimit() {
        return limit;
    }

    @Override
    public long capItems() {
        return capItems;
    }
}
