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
 * Where the paper is ambiguous it adapts first, then requests the new amount (the other reading
 * stalls); one call processes in order every eligible point the receipts since the last call
 * passed. lab/docs/ADAPTIVE.md §2 explains the drift this rule shows and the ambiguity.
 */
public record PaperLiteralDemand(
        long initialAmount, long minAmount, long maxAmount, long initialShift, long minShift, long maxShift)
        implements DemandStrategy {

    /** The paper's rules with its constants: amount 100 (min 3), shift 2 in [1, 3]. */
    public PaperLiteralDemand() {
        this(100, 3, Long.MAX_VALUE / 2, 2, 1, 3);
    }

    /** The rules with other bounds; {@code min == max} keeps a parameter constant. */
    public PaperLiteralDemand {
        if (minAmount < 1 || initialAmount < minAmount || initialAmount > maxAmount) {
            throw new IllegalArgumentException("amount must satisfy 1 <= min <= initial <= max, was " + minAmount + ", "
                    + initialAmount + ", " + maxAmount);
        }
        if (minShift < 0 || initialShift < minShift || initialShift > maxShift || initialShift >= initialAmount) {
            throw new IllegalArgumentException(
                    "shift must satisfy 0 <= min <= initial <= max and initial < amount, was " + minShift + ", "
                            + initialShift + ", " + maxShift);
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
        private long position; // receipts since the last eligible point
        private long seenReceived; // receipts already counted into position

        @Override
        public long nextRequest(DemandState state) {
            if (state.requestedItems() == 0) {
                return amount; // the first request
            }
            long received = state.receivedItems();
            position += received - seenReceived;
            seenReceived = received;
            long toRequest = 0;
            while (position >= cycle()) { // (1): position = amount - shift
                position -= cycle();
                adapt(state.queuedItems()); // (2)-(7) at the eligible point, then request
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
            if (queue < shift) { // (2)
                amount = Math.min(saturatingMultiply(amount, 2), maxAmount); // (3)
                shift = Math.min(shift + 1, maxShift); // (4)
            } else if (queue > shift) { // (5)
                amount = Math.max(amount / 2, minAmount); // (6)
                shift = Math.max(shift - 1, minShift); // (7)
            }
        }

        @Override
        public long windowItems() {
            return Long.MAX_VALUE; // unclamped by the writer's byte cap: the drift shows
        }

        @Override
        public String describe() {
            return "paper-literal amount=" + amount + " shift=" + shift;
        }
    }

    private static long saturatingAdd(long current, long increment) {
        long sum = current + increment;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    private static long saturatingMultiply(long value, int factor) {
        return value > Long.MAX_VALUE / factor ? Long.MAX_VALUE : value * factor;
    }
}
