package io.sluice.bench.adaptive;

/**
 * The model's costs: what the real pipeline spends besides the schedules themselves. Latencies are
 * drawn from exponential distributions with these means (seeded); per-item costs are fixed.
 *
 * @param dispatchNanos mean delay from a drain signal to the pass running on the executor
 * @param producerWakeNanos mean delay from {@code request} to a parked producer thread running
 * @param producerItemNanos producer time per item: allocate, {@code onNext}, enqueue, signal
 * @param producerNanosPerByte producer time per byte (allocation zeroes the buffer)
 * @param drainItemNanos drain time per item taken from the queue
 * @param writeCallNanos time per channel {@code write} call besides the sink's pacing
 */
public record ModelCosts(long dispatchNanos, long producerWakeNanos, long producerItemNanos,
                         double producerNanosPerByte, long drainItemNanos, long writeCallNanos) {

    public ModelCosts {
        if (dispatchNanos < 0 || producerWakeNanos < 0 || producerItemNanos < 0 || producerNanosPerByte < 0
                || drainItemNanos < 0 || writeCallNanos < 0) {
            throw new IllegalArgumentException("costs must not be negative: " + this);
        }
    }

    /**
     * Costs fitted on the 2-core shared build machine with {@link Calibration} (see
     * docs/ADAPTIVE.md): the round trip request → item → drain of {@code oneByOne} with unlimited
     * ends split evenly into wake and dispatch, and the per-item cost of {@code unbounded}.
     */
    public static ModelCosts buildMachine() {
        return new ModelCosts(25_000, 25_000, 3_000, 0.35, 500, 3_000);
    }

    /** No overhead at all: the ideal pipeline, for tests of the rules alone. */
    public static ModelCosts free() {
        return new ModelCosts(0, 0, 0, 0, 0, 0);
    }

    public ModelCosts withLatencies(long dispatchNanos, long producerWakeNanos) {
        return new ModelCosts(dispatchNanos, producerWakeNanos, producerItemNanos, producerNanosPerByte,
                drainItemNanos, writeCallNanos);
    }
}
