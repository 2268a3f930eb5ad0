package io.sluice.bench.adaptive;

import io.sluice.demand.DemandController;
import io.sluice.demand.DemandState;
import io.sluice.demand.DemandStrategy;

/**
 * The paper's "greed", transcribed literally, for comparison only: request {@code amount} every
 * {@code amount - shift} receipts (rule (1), the position counted in items received since the
 * last request) and, at that point, adapt by comparing the queue with {@code shift}: rules
 * (2)-(4) when {@code queue < shift}, (5)-(7) when {@code queue > shift}. Defaults as in the
 * paper's examples: amount 100 (doubling without bound), shift 2, in [1, 3]; amount at least 3.
 *
 * <p>Each cycle requests {@code amount} but receives only {@code amount - shift} before the next
 * request, so outstanding demand grows by {@code shift} per cycle, and the point where it
 * requests depends on receipts only, never on writes: a slow channel does not slow the producer.
 * {@link DemandController#windowItems()} is {@code Long.MAX_VALUE}; the writer's byte cap still
 * clamps what it forwards (it clamps every strategy but {@code Demand.unbounded()}), so the drift
 * shows as outstanding demand that climbs to the cap and stays there.
 *
 * <p>The paper does not say whether the request at an eligible point uses the amount before or
 * after that point's adaptation. Requesting the old amount and then doubling it deadlocks: the
 * next eligible point is {@code 2·amount - shift} receipts away but only {@code amount + shift}
 * are outstanding, so the stream stalls (only the writer's never-stall rule would rescue it, one
 * item at a time). This transcription adapts first and requests the new amount.
 *
 * <p>The writer calls a controller once per drain pass, not per receipt, so several receipts may
 * arrive between calls; the controller then processes the eligible points they passed in order,
 * as the per-receipt notifications of the paper would have.
 */
public record PaperLiteralDemand(long initialAmount, long minAmount, long maxAmount,
                                 long initialShift, long minShift, long maxShift) implements DemandStrategy {

    /** The paper's rules with its constants: amount 100 (min 3), shift 2 in [1, 3]. */
    public PaperLiteralDemand() {
        this(100, 3, Long.MAX_VALUE / 2, 2, 1, 3);
    }

    /** The rules with other bounds; {@code min == max} keeps a parameter constant. */
    public PaperLiteralDemand {
        if (minAmount < 1 || initialAmount < minAmount || initialAmount > maxAmount) {
            throw new IllegalArgumentException("amount must satisfy 1 <= min <= initial <= max, was "
                    + minAmount + ", " + initialAmount + ", " + maxAmount);
        }
        if (minShift < 0 || initialShift < minShift || initialShift > maxShift || initialShift >= initialAmount) {
            throw new IllegalArgumentException("shift must satisfy 0 <= min <= initial <= max and initial < amount, was "
                    + minShift + ", " + initialShift + ", " + maxShift);
        }
    }

    @Override
    public DemandController newController() {
        return new Controller();
    }

    @Override
    public String toString() {
        return "paper-literal";
    }

    private final class Controller implements DemandController {
        private long amount = initialAmount;
        private long shift = initialShift;
        private long position;                    // receipts since the last eligible point
        private long seenReceived;                // receipts already counted into position

        @Override
        public long nextRequest(DemandState state) {
            if (state.requestedItems() == 0) {
                return amount;                    // the first request
            }
            long received = state.receivedItems();
            position += received - seenReceived;
            seenReceived = received;
            long toRequest = 0;
            while (position >= cycle()) {         // (1): position = amount - shift
                position -= cycle();
                adapt(state.queuedItems());       // (2)-(7) at the eligible point, then request
                toRequest = saturatingAdd(toRequest, amount);
            }
            return toRequest;
        }

        /**
         * Receipts per request, {@code amount - shift}; at least 1, since the paper's bounds allow
         * amount 3 with shift 3 (a cycle of 0 receipts would request forever).
         */
        private long cycle() {
            return Math.max(1, amount - shift);
        }

        private void adapt(long queue) {
            if (queue < shift) {                                   // (2)
                amount = Math.min(saturatingMultiply(amount, 2), maxAmount);   // (3)
                shift = Math.min(shift + 1, maxShift);            // (4)
            } else if (queue > shift) {                            // (5)
                amount = Math.max(amount / 2, minAmount);          // (6)
                shift = Math.max(shift - 1, minShift);             // (7)
            }
        }

        @Override
        public long windowItems() {
            return Long.MAX_VALUE;                // unclamped by the writer's byte cap: the drift shows
        }

        @Override
        public String describe() {
            return "paper-literal amount=" + amount + " shift=" + shift;
        }
    }

    private static long saturatingAdd(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    private static long saturatingMultiply(long value, int factor) {
        return value > Long.MAX_VALUE / factor ? Long.MAX_VALUE : value * factor;
    }
}
