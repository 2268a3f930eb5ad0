package io.sluice.server.load;

import org.HdrHistogram.Histogram;

import java.util.concurrent.atomic.AtomicLong;

/** Latencies (HdrHistogram, microseconds, up to 60 s) and outcome counters of one traffic class. */
final class LatencyRecorder {

    private final Histogram histogram = new Histogram(60_000_000L, 3);
    private final AtomicLong ok = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicLong timeouts = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();

    synchronized void success(long latencyNanos, long bodyBytes) {
        histogram.recordValue(Math.max(1, Math.min(latencyNanos / 1000, 60_000_000L)));
        ok.incrementAndGet();
        bytes.addAndGet(bodyBytes);
    }

    void error() {
        errors.incrementAndGet();
    }

    /** A timeout also counts as a sample at the timeout, so p99 cannot hide it. */
    synchronized void timeout(long timeoutNanos) {
        histogram.recordValue(Math.min(timeoutNanos / 1000, 60_000_000L));
        timeouts.incrementAndGet();
    }

    /** The counts and percentiles as a row reports them. */
    Traffic traffic() {
        return new Traffic(ok.get(), bytes.get(), errors.get(), timeouts.get(), percentileMillis(50),
                percentileMillis(99), percentileMillis(99.9));
    }

    private synchronized double percentileMillis(double percentile) {
        return histogram.getTotalCount() == 0 ? Double.NaN : histogram.getValueAtPercentile(percentile) / 1000.0;
    }
}
