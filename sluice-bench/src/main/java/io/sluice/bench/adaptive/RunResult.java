package io.sluice.bench.adaptive;

import java.util.List;

/**
 * What one run (measured or simulated) produced.
 *
 * @param scenario the scenario's name
 * @param strategy the strategy's name
 * @param elapsedNanos how long the run lasted
 * @param writtenBytes bytes the sink completed
 * @param peakQueuedBytes the most bytes received by the writer and not yet written
 * @param peakOutstandingItems the most items requested and not yet received
 *     ({@code Long.MAX_VALUE}: unbounded)
 * @param requestCalls calls to {@code Subscription.request}
 * @param series samples over time, for charts
 */
public record RunResult(String scenario, String strategy, long elapsedNanos, long writtenBytes,
                        long peakQueuedBytes, long peakOutstandingItems, long requestCalls,
                        List<Sample> series) {

    /**
     * One point of a time series.
     *
     * @param nanos time since the run began
     * @param queuedBytes the most bytes queued in the sample's interval
     * @param windowItems the controller's window ({@code Long.MAX_VALUE}: unbounded)
     * @param outstandingItems requested and not yet received
     * @param writtenBytes written so far
     */
    public record Sample(long nanos, long queuedBytes, long windowItems, long outstandingItems,
                         long writtenBytes) {
    }

    public RunResult {
        series = List.copyOf(series);
    }

    /** Throughput in MiB/s. */
    public double mibPerSecond() {
        return writtenBytes / RateSchedule.MIB / (elapsedNanos / 1e9);
    }
}
