package io.sluice.demand;

/**
 * What a writer knows when it asks its {@link DemandController} for a decision: cumulative counts
 * since the write began, read on the write's drain.
 *
 * <p><b>Threading:</b> valid only during the {@link DemandController#nextRequest} call it is passed
 * to; do not keep it.
 *
 * <p><b>Backpressure:</b> {@link #requestLimit()} is the byte cap expressed in items: what the
 * writer will forward at most, whatever the controller asks.
 *
 * <p><b>Resources:</b> a view of the write's counters; holds nothing of its own.
 *
 * <p><b>Errors:</b> the methods do not throw.
 */
public interface DemandState {

    /** Items requested from upstream so far (saturates at {@code Long.MAX_VALUE}). */
    long requestedItems();

    /** Items received from upstream so far. */
    long receivedItems();

    /** Items fully written to the channel so far. */
    long writtenItems();

    /** Bytes received but not yet written. */
    long queuedBytes();

    /** The largest item received so far, in bytes; 0 before the first item. */
    long largestItemBytes();

    /**
     * The most items the writer forwards now without its queued bytes going over the byte cap
     * (assuming items no larger than the largest seen); at least 1 when nothing is queued or
     * outstanding, so a write can always make progress.
     */
    long requestLimit();

    /** Requested but not yet received. */
    default long outstandingItems() {
        long requested = requestedItems();
        return requested == Long.MAX_VALUE ? Long.MAX_VALUE : requested - receivedItems();
    }

    /** Received but not yet written. */
    default long queuedItems() {
        return receivedItems() - writtenItems();
    }
}
