package io.sluice;

/**
 * Receives a write's counters after each drain pass: the demand decision and what stood behind it.
 *
 * <p>A summary of each write needs no listener: every write also commits one JDK Flight Recorder
 * event when it ends (reads and a zero-copy {@code copyTo} emit none), {@code io.sluice.Write} (label "Reactive Write", category "sluice", "I/O"),
 * with its duration and the fields {@code target} (the file's path, or the channel's or stream's
 * class name and identity hash, never its {@code toString()}), {@code strategy}, {@code bytes}, {@code items}, {@code requestCalls},
 * {@code peakQueuedBytes} and {@code outcome} ({@code completed}, {@code cancelled} or
 * {@code failed: } and the exception). It is on in the JDK's default settings; record and read it
 * with
 * <pre>{@code
 * java -XX:StartFlightRecording=filename=rec.jfr ...
 * jfr print --events io.sluice.Write rec.jfr
 * }</pre>
 * or open the recording in JDK Mission Control (Event Browser, sluice / I/O / Reactive Write).
 * docs/USING.md shows real output.
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

    /**
     * Called when an item larger than any before it arrived while {@code outstandingItems} more
     * were requested: demand granted on the assumption of smaller items, which the writer cannot
     * take back, so the write may hold up to {@code outstandingItems * (itemBytes -
     * previousLargestBytes)} bytes beyond its byte cap until they are written (the bound for a
     * whole write is in the {@link WriteOptions} class documentation). Never called with
     * {@link WriteOptions#withMaxItemBytes(long)}, where demand is counted at the declared size
     * from the start and a larger item fails the write. Called on the write's drain, at its next pass; also
     * recorded as the JDK Flight Recorder event {@code io.sluice.LargerItem}. Not called for the
     * first non-empty item, nor for {@link io.sluice.demand.Demand#unbounded()}, which has no cap.
     * The default does nothing.
     *
     * @param itemBytes the new item's size
     * @param previousLargestBytes the largest item before it
     * @param outstandingItems items requested and not yet received after this one
     */
    default void onLargerItem(long itemBytes, long previousLargestBytes, long outstandingItems) {}
}
