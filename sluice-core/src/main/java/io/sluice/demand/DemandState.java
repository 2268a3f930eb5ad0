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
 * <p><b>Errors:</b> the methods do not throw.
 */
public interface DemandState {

    /**
     * Items requested from upstream so far.
     *
     * @return the sum of all {@code request(n)} calls, saturating at {@code Long.MAX_VALUE}; 0
     *     before the first request
     */
    long requestedItems();

    /**
     * Items received from upstream so far.
     *
     * @return the number of {@code onNext} signals received
     */
    long receivedItems();

    /**
     * Items fully written to the channel so far.
     *
     * @return the number of items whose every byte has been written
     */
    long writtenItems();

    /**
     * Bytes received but not yet written.
     *
     * @return the total size in bytes of the received items not yet fully written, including those
     *     being written now; bytes a file's writer holds in its staging buffer (small items, until
     *     it has a whole buffer to write) count as written here, and still against
     *     {@code WriteOptions.maxQueuedBytes()}
     */
    long queuedBytes();

    /**
     * The largest item received so far.
     *
     * @return the largest item's size in bytes; 0 before the first item
     */
    long largestItemBytes();

    /**
     * The most items the writer forwards now so that its queued bytes plus its outstanding items,
     * each counted at the assumed item size (the largest item seen, or the largest declared with
     * {@link io.sluice.WriteOptions#withMaxItemBytes(long)} if that is larger), fit under the byte
     * cap; at least 1 when nothing is queued, staged or outstanding, so a write can always make
     * progress. Items larger than the assumed size can make the write hold more: the bound is in
     * {@link io.sluice.WriteOptions}.
     *
     * @return the largest request the writer forwards now, in items: the room left under the byte
     *     cap at the assumed item size (bytes a file's writer holds in its staging buffer count
     *     here), or 1 if there is none and nothing is queued, staged or outstanding (so 1 before
     *     the first item arrives if no largest item is declared); otherwise 0
     */
    long requestLimit();

    /**
     * The most items the byte cap lets this write hold at once (queued plus outstanding), at the
     * assumed item size (see {@link #requestLimit()}). A controller that asks for a larger window than this is clamped by
     * {@link #requestLimit()} anyway; the adaptive strategy uses it so that its window never grows
     * past what the writer can really hold.
     *
     * @return the cap in items, at least 1; {@code Long.MAX_VALUE} before the first item arrives
     *     when no largest item is declared (and in this default, for states that know no cap)
     */
    default long capItems() {
        return Long.MAX_VALUE;
    }

    /**
     * Requested but not yet received.
     *
     * @return {@code requestedItems() - receivedItems()}, or {@code Long.MAX_VALUE} once the
     *     request total has saturated
     */
    default long outstandingItems() {
        long requested = requestedItems();
        return requested == Long.MAX_VALUE ? Long.MAX_VALUE : requested - receivedItems();
    }

    /**
     * Received but not yet written.
     *
     * @return {@code receivedItems() - writtenItems()}, the items in the writer's queue
     */
    default long queuedItems() {
        return receivedItems() - writtenItems();
    }
}
