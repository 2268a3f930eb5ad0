package io.sluice.bench.adaptive;

import java.util.Locale;

/**
 * The model's costs: what the real pipeline spends besides the schedules themselves. Latencies are
 * drawn from exponential distributions with these means (seeded); per-item costs are fixed. The
 * published figures come from {@link Calibration} in the same run that uses them.
 *
 * @param dispatchNanos mean delay from a drain signal to the pass running on the executor
 * @param producerWakeNanos mean delay from {@code request} to a parked producer thread running
 * @param producerItemNanos producer time per item: allocate, {@code onNext}, enqueue, signal
 * @param producerNanosPerByte producer time per byte (allocation zeroes the buffer)
 * @param drainItemNanos drain time per item: take it from the queue, request, account
 * @param writeCallNanos time per channel {@code write} call besides the sink's pacing
 * @param parkOvershootNanos mean lateness of a paced end's park beyond its deadline
 */
public record ModelCosts(
        long dispatchNanos,
        long producerWakeNanos,
        long producerItemNanos,
        double producerNanosPerByte,
        long drainItemNanos,
        long writeCallNanos,
        long parkOvershootNanos) {

    public ModelCosts {
        if (dispatchNanos < 0
                || producerWakeNanos < 0
                || producerItemNanos < 0
                || !(producerNanosPerByte >= 0)
                || drainItemNanos < 0
                || writeCallNanos < 0
                || parkOvershootNanos < 0) {
            throw new IllegalArgumentException("costs must not be negative: " + this);
        }
    }

    /** {@value ScenarioMain#COSTS_CSV}: the costs by name, in declaration order (also the report's rows). */
    String csv() {
        return String.format(
                Locale.ROOT,
                "cost,value\ndispatch_ns,%d\nproducer_wake_ns,%d\nproducer_item_ns,%d\n"
                        + "producer_ns_per_byte,%.3f\ndrain_item_ns,%d\nwrite_call_ns,%d\npark_overshoot_ns,%d\n",
                dispatchNanos,
                producerWakeNanos,
                producerItemNanos,
                producerNanosPerByte,
                drainItemNanos,
                writeCallNanos,
                parkOvershootNanos);
    }
}
