package io.sluice.demand;

/**
 * The demand decisions of one write, created by {@link DemandStrategy#newController()}.
 *
 * <p><b>Threading:</b> called only from the owning write's drain, never concurrently; needs no
 * synchronisation.
 *
 * <p><b>Contract:</b> the writer calls {@link #nextRequest} once before the first request and
 * again after every drain pass (each batch written, each batch of items received). A controller
 * must never stall a write: when nothing is queued and nothing is outstanding it returns at
 * least 1.
 *
 * <p><b>Backpressure:</b> the writer forwards the returned demand clamped by its byte cap
 * ({@link DemandState#requestLimit()}) for every strategy but {@link Demand#unbounded()}, so a
 * controller decides the pace but cannot make the writer hold more than the byte bound
 * {@link io.sluice.WriteOptions} states.
 *
 * <p><b>Resources:</b> one controller per write, dropped when the write ends; it must not hold
 * buffers or channels.
 *
 * <p><b>Errors:</b> an exception from {@link #nextRequest}, or a negative result, fails the write
 * (the writer cancels upstream and closes the channel).
 */
public interface DemandController {

    /**
     * Decides how many more items to request now.
     *
     * @param state the write's counters at this moment
     * @return the number of items to request now, {@code 0} to wait for more progress
     */
    long nextRequest(DemandState state);

    /**
     * The most items (queued plus outstanding) this controller currently lets the writer hold.
     *
     * @return the current window in items; {@code Long.MAX_VALUE} when unbounded. Reported in
     *     {@link io.sluice.WriteSnapshot#windowItems()}; the writer's byte cap applies whatever it
     *     returns (only {@link Demand#unbounded()} is not capped)
     */
    long windowItems();

    /**
     * A short description of the current parameters for metrics, such as {@code amount=64 shift=2}.
     *
     * @return a one-line, human-readable description; reported as {@code WriteSnapshot.strategy()}
     */
    String describe();
}
