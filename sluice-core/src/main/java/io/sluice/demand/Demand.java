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
 * <p><b>Errors:</b> {@link #fixed(long, long)} throws {@link IllegalArgumentException} for
 * inconsistent parameters, naming them.
 */
public final class Demand {

    private Demand() {}

    /**
     * The adaptive strategy with its default settings.
     *
     * @return {@link AdaptiveDemand#defaults()}, which the {@code with...} methods tune
     */
    public static AdaptiveDemand adaptive() {
        return AdaptiveDemand.defaults();
    }

    /**
     * Requests {@code amount} items at a time, the next batch once only {@code shift} items of the
     * previous one are left (queued or outstanding). The writer holds at most
     * {@code amount + shift} items.
     *
     * @param amount the number of items requested at once, at least 1
     * @param shift how many items may be left (queued or outstanding) when the next batch is
     *     requested, at least 0 and less than {@code amount}; 0 waits until everything is written
     * @return an immutable strategy with these constant parameters
     * @throws IllegalArgumentException if {@code amount < 1}, {@code shift < 0} or
     *     {@code shift >= amount}
     */
    public static DemandStrategy fixed(long amount, long shift) {
        return new FixedDemand(amount, shift);
    }

    /**
     * Requests one item, and the next once it is written: {@code fixed(1, 0)}.
     *
     * @return a strategy holding at most one item; the slowest, for comparison and tests
     */
    public static DemandStrategy oneByOne() {
        return new FixedDemand(1, 0);
    }

    /**
     * Requests {@code Long.MAX_VALUE} once: no backpressure and no memory bound.
     *
     * @return the shared unbounded strategy; the write's byte cap does not apply to it
     */
    public static DemandStrategy unbounded() {
        return UnboundedDemand.INSTANCE;
    }
}
