package io.sluice;

/**
 * Receives a write's counters after each drain pass: the demand decision and what stood behind it.
 *
 * <p><b>Threading:</b> called on the write's drain, never concurrently for one write; a listener
 * shared by several writes is called from several threads. It must be fast and must not block.
 *
 * <p><b>Backpressure:</b> the listener runs on the drain, between a write and the next request, so
 * a slow listener slows the write and its upstream; it never adds buffering.
 *
 * <p><b>Resources:</b> the library holds the listener only while the write runs.
 *
 * <p><b>Errors:</b> an exception thrown by the listener fails the write with that exception.
 */
@FunctionalInterface
public interface WriteListener {

    /**
     * Called after each drain pass; {@code snapshot} is immutable and may be kept.
     *
     * @param snapshot the write's cumulative counters and the demand decision of this pass
     *     ({@link WriteSnapshot#lastRequest()} is 0 when the pass requested nothing)
     */
    void onPass(WriteSnapshot snapshot);
}
