package io.sluice.demand;

/**
 * The built-in demand strategies.
 *
 * <ul>
 *   <li>{@link #adaptive()}: the paper's adaptive "greed" (rules (2)-(7)) without its drift and
 *       within a byte cap; the default.</li>
 *   <li>{@link #fixed(long, long)}: request {@code amount} items whenever only {@code shift} of the
 *       previous batch are left.</li>
 *   <li>{@link #oneByOne()}: one item at a time.</li>
 *   <li>{@link #unbounded()}: everything at once ({@code Long.MAX_VALUE}); no memory bound, for
 *       comparison only.</li>
 * </ul>
 *
 * <p><b>Threading:</b> the strategies returned are immutable and may be shared by any number of
 * writes on any threads.
 *
 * <p><b>Backpressure:</b> every strategy but {@link #unbounded()} bounds the items a write holds
 * (queued plus outstanding) by its window; the write's byte cap applies on top.
 *
 * <p><b>Resources:</b> strategies hold none.
 *
 * <p><b>Errors:</b> {@link #fixed(long, long)} throws {@link IllegalArgumentException} for
 * inconsistent parameters, naming them.
 */
public final class Demand {

    private Demand() {
    }

    /** The adaptive strategy with its default settings. */
    public static AdaptiveDemand adaptive() {
        return AdaptiveDemand.defaults();
    }

    /**
     * Requests {@code amount} items at a time, the next batch once only {@code shift} items of the
     * previous one are left (queued or outstanding). The writer holds at most
     * {@code amount + shift} items.
     *
     * @throws IllegalArgumentException if {@code amount < 1}, {@code shift < 0} or
     *     {@code shift >= amount}
     */
    public static DemandStrategy fixed(long amount, long shift) {
        return new FixedDemand(amount, shift);
    }

    /** Requests one item, and the next once it is written: {@code fixed(1, 0)}. */
    public static DemandStrategy oneByOne() {
        return new FixedDemand(1, 0);
    }

    /** Requests {@code Long.MAX_VALUE} once: no backpressure and no memory bound. */
    public static DemandStrategy unbounded() {
        return UnboundedDemand.INSTANCE;
    }
}
