package io.sluice.demand;

/**
 * One write's controller for an {@link AdaptiveDemand}: the rules (2)-(7) its class Javadoc
 * states, applied once per batch at the batch's eligible point. Confined to the write's drain (see
 * {@link DemandController}), so its fields need no synchronisation.
 */
final class AdaptiveController implements DemandController {

    private final AdaptiveDemand strategy; // the bounds and factors; immutable, shared
    private long amount; // drain only: items per request
    private long shift; // drain only: outstanding items that trigger a refill
    private long adaptedAtRequested = -1; // drain only: requested total last adapted at; -1 before the first

    AdaptiveController(AdaptiveDemand strategy) {
        this.strategy = strategy;
        this.amount = strategy.initialAmount();
        this.shift = strategy.initialShift();
    }

    @Override
    public long nextRequest(DemandState state) {
        long requested = state.requestedItems();
        if (requested == 0) {
            return amount;
        }
        long outstanding = state.outstandingItems();
        long queued = state.queuedItems();
        if (adaptedAtRequested != requested && outstanding <= shift) {
            adapt(queued, state.largestItemBytes(), state.capItems()); // once per batch, at its eligible point
            adaptedAtRequested = requested;
        }
        if (adaptedAtRequested == requested && queued + outstanding <= shift) {
            return amount; // refill: the window bound holds
        }
        return 0;
    }

    private void adapt(long queued, long largestItemBytes, long capItems) {
        if (largestItemBytes == 0) {
            return; // no item has arrived yet: no evidence either way
        }
        long minAmount = strategy.minAmount();
        long maxAmount = strategy.maxAmount();
        if (queued < shift) { // (2): the channel is faster
            // (3), never past what the byte cap lets the writer hold: while the cap binds, the
            // drain writes everything it holds before it asks again, so the queue is empty at the
            // eligible point however slow the channel is; growing there would only make the
            // reported window a fiction the cap clamps away.
            long capCeiling = capItems == Long.MAX_VALUE ? maxAmount : Math.max(minAmount, capItems - shift);
            long grown = Math.min(saturatingMultiply(amount, strategy.growthFactor()), Math.min(maxAmount, capCeiling));
            amount = Math.max(amount, grown); // (3)
            shift = Math.min(shift + 1, strategy.maxShift()); // (4)
        } else if (queued > shift) { // (5): the channel is slower
            long floor = minAmount;
            long minBatchBytes = strategy.minBatchBytes();
            if (minBatchBytes > 0) {
                long itemsForMinBatch = (minBatchBytes + largestItemBytes - 1) / largestItemBytes;
                floor = Math.max(minAmount, Math.min(itemsForMinBatch, maxAmount));
            }
            amount = Math.max(amount / strategy.shrinkFactor(), floor); // (6)
            shift = Math.max(shift - 1, strategy.minShift()); // (7)
        }
    }

    @Override
    public long windowItems() {
        return amount > Long.MAX_VALUE - shift ? Long.MAX_VALUE : amount + shift;
    }

    @Override
    public String describe() {
        return "adaptive amount=" + amount + " shift=" + shift;
    }

    private static long saturatingMultiply(long value, int factor) {
        return value > Long.MAX_VALUE / factor ? Long.MAX_VALUE : value * factor;
    }
}
