package io.sluice.server.load;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The bytes queued in all writers of one run together, and their peak: each stream reports its own
 * queue from its listener, and the sum is taken over the latest report of every stream.
 *
 * <p><b>Threading:</b> any stream's drain may call {@link #report} at any time; all state is atomic.
 * The sum is over reports that are each current for their own stream, so it may mix instants by a
 * drain pass; the peak is the largest such sum.
 */
final class QueueTotals {

    private final AtomicLongArray queued;
    private final AtomicLong peak = new AtomicLong();

    QueueTotals(int streams) {
        this.queued = new AtomicLongArray(streams);
    }

    void report(int stream, long queuedBytes) {
        queued.set(stream, queuedBytes);
        long total = 0;
        for (int k = 0; k < queued.length(); k++) {
            total += queued.get(k);
        }
        peak.accumulateAndGet(total, Math::max);
    }

    long peakBytes() {
        return peak.get();
    }
}
