package io.sluice;

/**
 * A write's counters at the end of one drain pass.
 *
 * <p><b>Threading:</b> immutable; may be kept and read from any thread.
 *
 * <p><b>Backpressure:</b> shows the demand decisions: a request is made only while
 * {@code queuedItems() + outstandingItems()} stays within {@code windowItems}, and
 * {@code queuedBytes} within the byte bound {@link WriteOptions} states (the cap
 * {@link WriteOptions#maxQueuedBytes()}, or the largest item if larger, while no item is larger
 * than every one before it).
 *
 * <p><b>Written</b> bytes are in the target when the snapshot is taken (for a file: in the file, in
 * the page cache unless the write syncs). A file's writer may hold the bytes of small heap items in
 * its staging buffer (at most 256 KiB), which it writes when full and before the pass ends: those
 * count in {@code writtenItems} (taken from the queue) but not yet in {@code writtenBytes}, nor in
 * {@code queuedBytes}.
 *
 * <p><b>Errors:</b> its constructor and methods do not throw.
 *
 * @param requestedItems items requested from upstream so far
 * @param receivedItems items received so far
 * @param writtenItems items written so far
 * @param queuedBytes bytes received and not yet taken from the queue (bytes a file's writer holds
 *     in its staging buffer are no longer queued; they count against the byte cap until they reach
 *     the file)
 * @param writtenBytes bytes in the target so far (staged bytes not yet)
 * @param lastRequest the demand issued in this pass (0 if none)
 * @param requestCalls how many times {@code request} was called so far
 * @param windowItems the strategy's current window ({@code Long.MAX_VALUE}: unbounded)
 * @param strategy the strategy's current parameters, such as {@code adaptive amount=64 shift=2}
 */
public record WriteSnapshot(
        long requestedItems,
        long receivedItems,
        long writtenItems,
        long queuedBytes,
        long writtenBytes,
        long lastRequest,
        long requestCalls,
        long windowItems,
        String strategy) {

    /**
     * Requested but not yet received.
     *
     * @return {@code requestedItems - receivedItems}, or {@code Long.MAX_VALUE} once the request
     *     total has saturated (unbounded demand)
     */
    public long outstandingItems() {
        return requestedItems == Long.MAX_VALUE ? Long.MAX_VALUE : requestedItems - receivedItems;
    }

    /**
     * Received but not yet written.
     *
     * @return {@code receivedItems - writtenItems}, the items held in the writer's queue
     */
    public long queuedItems() {
        return receivedItems - writtenItems;
    }
}
