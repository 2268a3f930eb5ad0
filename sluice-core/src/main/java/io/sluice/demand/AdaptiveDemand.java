package io.sluice.demand;

/**
 * The adaptive strategy: the paper's "greed" with its rules (2)-(7), kept within a window.
 *
 * <p>Each write starts at {@link #initialAmount()} and {@link #initialShift()}. Every batch has one
 * <em>eligible point</em>, when only {@code shift} of its items are still outstanding (the paper's
 * "98th of 100"). There the controller compares the writer's queue with {@code shift}:
 * <ul>
 *   <li>queue &lt; shift (the channel keeps up): amount grows by {@link #growthFactor()} up to
 *       {@link #maxAmount()}, and never past what the write's byte cap lets it hold
 *       ({@link DemandState#capItems()} less the shift), shift by one up to {@link #maxShift()}
 *       (rules (2)-(4));</li>
 *   <li>queue &gt; shift (the channel lags): amount shrinks by {@link #shrinkFactor()} down to
 *       {@link #minAmount()}, but never below {@link #minBatchBytes()} worth of the largest item
 *       seen, and shift by one down to {@link #minShift()} (rules (5)-(7));</li>
 *   <li>otherwise nothing changes.</li>
 * </ul>
 * The next batch of {@code amount} is requested once {@code queued + outstanding <= shift}: for a
 * channel that keeps up this is the eligible point itself; for one that lags the refill waits for
 * written items to free room. Outstanding demand therefore never drifts (the literal rule adds
 * {@code shift} per cycle) and the writer holds at most {@code amount + shift} items.
 *
 * <p><b>Threading:</b> instances are immutable and may be shared by any number of writes; the
 * {@code with...} methods return modified copies. Each write's controller is confined to that
 * write's drain.
 *
 * <p><b>Backpressure:</b> a write requests only while the items it holds (queued plus outstanding)
 * stay within the current {@code amount + shift}, so it never holds more than
 * {@code maxAmount + maxShift}; the write's byte cap applies on top.
 *
 * <p><b>Errors:</b> the {@code with...} methods throw {@link IllegalArgumentException} naming the
 * inconsistent value and the bound it breaks.
 */
public final class AdaptiveDemand implements DemandStrategy {

    private static final AdaptiveDemand DEFAULTS = new AdaptiveDemand(16, 1, 16, 1024, 1, 1, 4, 4, 256 * 1024);

    private final long initialAmount;
    private final long initialShift;
    private final long minAmount;
    private final long maxAmount;
    private final long minShift;
    private final long maxShift;
    private final int growthFactor;
    private final int shrinkFactor;
    private final long minBatchBytes;

    private AdaptiveDemand(
            long initialAmount,
            long initialShift,
            long minAmount,
            long maxAmount,
            long minShift,
            long maxShift,
            int growthFactor,
            int shrinkFactor,
            long minBatchBytes) {
        require(minAmount >= 1, "minAmount must be at least 1, was " + minAmount);
        require(maxAmount >= minAmount, "maxAmount must be at least minAmount=" + minAmount + ", was " + maxAmount);
        require(
                initialAmount >= minAmount && initialAmount <= maxAmount,
                "initialAmount must be within [" + minAmount + ", " + maxAmount + "], was " + initialAmount);
        require(minShift >= 0, "minShift must not be negative, was " + minShift);
        require(maxShift >= minShift, "maxShift must be at least minShift=" + minShift + ", was " + maxShift);
        require(maxShift <= minAmount, "maxShift must not exceed minAmount=" + minAmount + ", was " + maxShift);
        require(
                initialShift >= minShift && initialShift <= maxShift,
                "initialShift must be within [" + minShift + ", " + maxShift + "], was " + initialShift);
        require(growthFactor >= 2, "growthFactor must be at least 2, was " + growthFactor);
        require(shrinkFactor >= 2, "shrinkFactor must be at least 2, was " + shrinkFactor);
        require(minBatchBytes >= 0, "minBatchBytes must not be negative, was " + minBatchBytes);
        this.initialAmount = initialAmount;
        this.initialShift = initialShift;
        this.minAmount = minAmount;
        this.maxAmount = maxAmount;
        this.minShift = minShift;
        this.maxShift = maxShift;
        this.growthFactor = growthFactor;
        this.shrinkFactor = shrinkFactor;
        this.minBatchBytes = minBatchBytes;
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

    /**
     * The defaults, chosen by the lab's model sweep ({@code lab/docs/ADAPTIVE.md}): amount 16 in [16, 1024],
     * shift 1 (fixed), growth and shrink factors 4, 256 KiB minimum batch. The paper's constants
     * (amount at least 3, shift in [1, 3], factors 2) are {@code withAmount(16, 3, 1024)
     * .withShift(1, 1, 3).withFactors(2, 2).withMinBatchBytes(0)}.
     *
     * @return the default adaptive strategy
     */
    public static AdaptiveDemand defaults() {
        return DEFAULTS;
    }

    /**
     * A copy with amount bounds and start value. The amount is the number of items requested at
     * once; rules (3) and (6) move it within {@code [min, max]}.
     *
     * @param initial the amount each write starts with, within {@code [min, max]}
     * @param min the smallest amount rule (6) may shrink to, at least 1 and at least this
     *     strategy's {@link #maxShift()}
     * @param max the largest amount rule (3) may grow to, at least {@code min}; with the shift it
     *     bounds the items a write holds
     * @return a copy with these amount settings
     * @throws IllegalArgumentException if {@code min < 1}, {@code max < min}, {@code initial} is
     *     outside {@code [min, max]}, or {@code min} is below {@link #maxShift()}
     */
    public AdaptiveDemand withAmount(long initial, long min, long max) {
        return new AdaptiveDemand(
                initial, initialShift, min, max, minShift, maxShift, growthFactor, shrinkFactor, minBatchBytes);
    }

    /**
     * A copy with shift bounds and start value. The shift is how many items of a batch may still be
     * outstanding when the next batch is requested; rules (4) and (7) move it by one within
     * {@code [min, max]}.
     *
     * @param initial the shift each write starts with, within {@code [min, max]}
     * @param min the smallest shift rule (7) may shrink to, at least 0
     * @param max the largest shift rule (4) may grow to, at least {@code min} and at most
     *     {@link #minAmount()}
     * @return a copy with these shift settings
     * @throws IllegalArgumentException if {@code min < 0}, {@code max < min}, {@code initial} is
     *     outside {@code [min, max]}, or {@code max} exceeds {@link #minAmount()}
     */
    public AdaptiveDemand withShift(long initial, long min, long max) {
        return new AdaptiveDemand(
                initialAmount, initial, minAmount, maxAmount, min, max, growthFactor, shrinkFactor, minBatchBytes);
    }

    /**
     * A copy with the factors rules (3) and (6) multiply and divide by.
     *
     * @param growth the factor the amount is multiplied by when the channel keeps up, at least 2
     * @param shrink the divisor the amount is divided by when the channel lags, at least 2
     * @return a copy with these factors
     * @throws IllegalArgumentException if {@code growth} or {@code shrink} is less than 2
     */
    public AdaptiveDemand withFactors(int growth, int shrink) {
        return new AdaptiveDemand(
                initialAmount, initialShift, minAmount, maxAmount, minShift, maxShift, growth, shrink, minBatchBytes);
    }

    /**
     * A copy whose shrinking stops at {@code bytes} worth of items (0: only {@link #minAmount()}
     * applies). The floor is {@code ceil(bytes / largest item seen)} items, kept within
     * {@code [minAmount, maxAmount]}, so small items are not requested in uselessly small batches.
     *
     * @param bytes the smallest batch rule (6) may shrink to, in bytes, at least 0
     * @return a copy with this minimum batch size
     * @throws IllegalArgumentException if {@code bytes} is negative
     */
    public AdaptiveDemand withMinBatchBytes(long bytes) {
        return new AdaptiveDemand(
                initialAmount,
                initialShift,
                minAmount,
                maxAmount,
                minShift,
                maxShift,
                growthFactor,
                shrinkFactor,
                bytes);
    }

    /**
     * The amount each write starts with.
     *
     * @return the initial number of items per request
     */
    public long initialAmount() {
        return initialAmount;
    }

    /**
     * The shift each write starts with.
     *
     * @return the initial number of items still outstanding at which the next batch is requested
     */
    public long initialShift() {
        return initialShift;
    }

    /**
     * The smallest amount rule (6) may shrink to.
     *
     * @return the lower bound of the amount, in items, at least 1
     */
    public long minAmount() {
        return minAmount;
    }

    /**
     * The largest amount rule (3) may grow to.
     *
     * @return the upper bound of the amount, in items
     */
    public long maxAmount() {
        return maxAmount;
    }

    /**
     * The smallest shift rule (7) may shrink to.
     *
     * @return the lower bound of the shift, in items, at least 0
     */
    public long minShift() {
        return minShift;
    }

    /**
     * The largest shift rule (4) may grow to.
     *
     * @return the upper bound of the shift, in items, at most {@link #minAmount()}
     */
    public long maxShift() {
        return maxShift;
    }

    /**
     * The factor rule (3) multiplies the amount by.
     *
     * @return the growth factor, at least 2
     */
    public int growthFactor() {
        return growthFactor;
    }

    /**
     * The divisor rule (6) divides the amount by.
     *
     * @return the shrink factor, at least 2
     */
    public int shrinkFactor() {
        return shrinkFactor;
    }

    /**
     * The byte size below which rule (6) stops shrinking a batch.
     *
     * @return the minimum batch size in bytes; 0 when only {@link #minAmount()} bounds shrinking
     */
    public long minBatchBytes() {
        return minBatchBytes;
    }

    @Override
    public DemandController newController() {
        return new AdaptiveController(this);
    }

    @Override
    public String toString() {
        return "adaptive(amount " + initialAmount + " in [" + minAmount + ", " + maxAmount
                + "], shift " + initialShift + " in [" + minShift + ", " + maxShift
                + "], x" + growthFactor + " /" + shrinkFactor + ", minBatch " + minBatchBytes + " B)";
    }
}
