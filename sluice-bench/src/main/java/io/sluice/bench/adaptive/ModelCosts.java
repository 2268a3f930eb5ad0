package io.sluice.bench.adaptive;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

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
public record ModelCosts(long dispatchNanos, long producerWakeNanos, long producerItemNanos,
                         double producerNanosPerByte, long drainItemNanos, long writeCallNanos,
                         long parkOvershootNanos) {

    public ModelCosts {
        if (dispatchNanos < 0 || producerWakeNanos < 0 || producerItemNanos < 0 || !(producerNanosPerByte >= 0)
                || drainItemNanos < 0 || writeCallNanos < 0 || parkOvershootNanos < 0) {
            throw new IllegalArgumentException("costs must not be negative: " + this);
        }
    }

    /** The costs by name, in declaration order (the report's and {@code calibration.csv}'s rows). */
    public Map<String, String> named() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("dispatch_ns", Long.toString(dispatchNanos));
        m.put("producer_wake_ns", Long.toString(producerWakeNanos));
        m.put("producer_item_ns", Long.toString(producerItemNanos));
        m.put("producer_ns_per_byte", String.format(Locale.ROOT, "%.3f", producerNanosPerByte));
        m.put("drain_item_ns", Long.toString(drainItemNanos));
        m.put("write_call_ns", Long.toString(writeCallNanos));
        m.put("park_overshoot_ns", Long.toString(parkOvershootNanos));
        return m;
    }
}
