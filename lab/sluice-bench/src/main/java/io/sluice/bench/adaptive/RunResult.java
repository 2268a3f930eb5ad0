package io.sluice.bench.adaptive;

import java.util.List;

/**
 * What one run (measured or simulated) produced: the bytes the sink completed, the peaks of bytes
 * queued and of items outstanding ({@code Long.MAX_VALUE}: unbounded), the {@code request} calls,
 * and the samples the charts draw.
 */
public record RunResult(
        String scenario,
        String strategy,
        long elapsedNanos,
        long writtenBytes,
        long peakQueuedBytes,
        long peakOutstandingItems,
        long requestCalls,
        List<Sample> series) {

    /**
     * A point at {@code nanos} since the run began: the most bytes queued in its interval, the
     * window ({@code Long.MAX_VALUE}: unbounded), items outstanding and bytes written so far.
     */
    public record Sample(long nanos, long queuedBytes, long windowItems, long outstandingItems, long writtenBytes) {}

    public RunResult {
        series = List.copyOf(series);
    }

    public double mibPerSecond() {
        return writtenBytes / RateSchedule.MIB / (elapsedNanos / 1e9);
    }
}
