package io.sluice.demand;

/**
 * {@code fixed(amount, shift)}: the paper's request trigger with constant parameters, without the
 * drift of its literal rule.
 *
 * <p>Rule: request {@code amount} when {@code queued + outstanding <= shift}. So the writer holds
 * at most {@code amount + shift} items (held items only grow by a request, which happens at
 * {@code <= shift}), and with a fast channel ({@code queued = 0}) the next batch goes out when
 * {@code shift} items of the current one are still to come: amount 100, shift 2 requests the next
 * 100 on receiving the 98th.
 */
final class FixedDemand implements DemandStrategy {

    private final long amount;
    private final long shift;

    FixedDemand(long amount, long shift) {
        if (amount < 1) {
            throw new IllegalArgumentException("amount must be at least 1, was " + amount);
        }
        if (shift < 0) {
            throw new IllegalArgumentException("shift must not be negative, was " + shift);
        }
        if (shift >= amount) {
            throw new IllegalArgumentException(
                    "shift must be less than amount, was shift=" + shift + " >= amount=" + amount);
        }
        this.amount = amount;
        this.shift = shift;
    }

    @Override
    public DemandController newController() {
        return new DemandController() {
            @Override
            public long nextRequest(DemandState state) {
                long held = state.queuedItems() + state.outstandingItems();
                return held <= shift ? amount : 0;
            }

            @Override
            public long windowItems() {
                return amount > Long.MAX_VALUE - shift ? Long.MAX_VALUE : amount + shift;
            }

            @Override
            public String describe() {
                return "fixed amount=" + amount + " shift=" + shift;
            }
        };
    }

    @Override
    public String toString() {
        return amount == 1 && shift == 0 ? "oneByOne" : "fixed(" + amount + ", " + shift + ")";
    }
}
