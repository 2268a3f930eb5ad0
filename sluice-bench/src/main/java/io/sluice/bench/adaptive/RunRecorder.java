package io.sluice.bench.adaptive;

import io.sluice.testkit.DemandRun;
import io.sluice.testkit.ScheduledPublisher;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Records a run, measured or simulated, the same way: the writer's per-pass snapshots
 * (outstanding demand, window, request calls), sampled every {@code sampleNanos} into the series,
 * and, from the producer after every item, the bytes held between producer and sink
 * ({@code emitted - written}), whose maximum is the peak queued bytes. That includes the batch
 * the writer is writing, which the writer's own {@code queuedBytes} also still counts.
 *
 * <p><b>Threading:</b> {@link #onPass} runs on the write's drain, {@link #emitted} on the
 * producer's thread; the results are read after the write has ended. The model calls everything
 * on its one thread, passing its simulated time to {@link #pass}.
 */
final class RunRecorder implements DemandRun.PassListener, ScheduledPublisher.EmissionProbe {

    private final long originNanos;
    private final long sampleNanos;
    private final LongSupplier sinkWrittenBytes;
    private final AtomicLong peakQueuedBytes = new AtomicLong();       // producer -> reader
    private final AtomicLong intervalQueuedBytes = new AtomicLong();   // producer -> drain
    private final List<RunResult.Sample> series = new ArrayList<>();   // guarded by this
    private long peakOutstandingItems;                                 // guarded by this
    private long requestCalls;                                         // guarded by this
    private long lastSampleNanos = Long.MIN_VALUE / 2;                    // guarded by this

    RunRecorder(long originNanos, long sampleNanos, LongSupplier sinkWrittenBytes) {
        this.originNanos = originNanos;
        this.sampleNanos = sampleNanos;
        this.sinkWrittenBytes = sinkWrittenBytes;
    }

    @Override
    public void emitted(long totalBytes) {
        long held = totalBytes - sinkWrittenBytes.getAsLong();
        peakQueuedBytes.accumulateAndGet(held, Math::max);
        intervalQueuedBytes.accumulateAndGet(held, Math::max);
    }

    @Override
    public void onPass(long queuedBytes, long windowItems, long outstandingItems, long writtenBytes,
                       long requestCalls) {
        pass(System.nanoTime(), queuedBytes, windowItems, outstandingItems, writtenBytes, requestCalls);
    }

    /** {@link #onPass} at {@code nowNanos} on the recorder's clock. */
    synchronized void pass(long nowNanos, long queuedBytes, long windowItems, long outstandingItems,
                           long writtenBytes, long requestCalls) {
        peakOutstandingItems = Math.max(peakOutstandingItems, outstandingItems);
        this.requestCalls = requestCalls;
        long now = nowNanos - originNanos;
        if (now - lastSampleNanos >= sampleNanos) {
            lastSampleNanos = now;
            long queued = Math.max(intervalQueuedBytes.getAndSet(0), queuedBytes);
            series.add(new RunResult.Sample(now, queued, windowItems, outstandingItems, writtenBytes));
        }
    }

    synchronized RunResult result(String scenario, String strategy, long elapsedNanos, long writtenBytes) {
        return new RunResult(scenario, strategy, elapsedNanos, writtenBytes, peakQueuedBytes.get(),
                peakOutstandingItems, requestCalls, series);
    }
}
