package io.sluice.bench.adaptive;

/**
 * The baseline the model is judged against: a prediction from the two rate schedules alone. At
 * every instant the stream moves at the slower end's rate, {@code min(producer(t), sink(t))}, so a
 * run of {@code d} carries the integral of that over {@code [0, d]}; no demand strategy, no
 * buffering between the ends, no per-item or per-request cost. What the model predicts beyond
 * this is what it knows about those.
 */
public final class ScheduleOnly {

    private ScheduleOnly() {}

    /** Bytes carried in {@code [0, durationNanos)} at {@code min(producer, sink)}; infinite if both are unlimited. */
    public static double bytes(RateSchedule producer, RateSchedule sink, long durationNanos) {
        double bytes = 0;
        long atNanos = 0;
        while (atNanos < durationNanos) {
            long next =
                    Math.min(durationNanos, Math.min(producer.segmentEndAfter(atNanos), sink.segmentEndAfter(atNanos)));
            double rate = Math.min(producer.bytesPerSecondAt(atNanos), sink.bytesPerSecondAt(atNanos));
            bytes += rate == 0 ? 0 : rate * (next - atNanos) / 1e9;
            atNanos = next;
        }
        return bytes;
    }

    /** The scenario's predicted throughput in MiB/s over its duration. */
    public static double mibPerSecond(Scenario scenario) {
        return bytes(scenario.producer(), scenario.sink(), scenario.durationNanos())
                / RateSchedule.MIB
                / (scenario.durationNanos() / 1e9);
    }
}
