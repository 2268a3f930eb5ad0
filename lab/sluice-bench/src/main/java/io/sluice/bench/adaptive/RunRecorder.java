package io.sluice.bench.adaptive;

import io.sluice.ByteChannels;
import io.sluice.WriteOptions;
import io.sluice.lab.DemandRun;
import io.sluice.lab.PacingClock;
import io.sluice.lab.ScheduledPublisher;
import io.sluice.lab.ThrottledChannel;

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
 * on its one thread, passing its simulated time to {@link #pass}. {@link #measure} runs a scenario for real.
 */
final class RunRecorder implements DemandRun.PassListener, ScheduledPublisher.EmissionProbe {

    /** The time between chart samples. */
    static final long SAMPLE_NANOS = 5_000_000;

    private final long originNanos;
    private final long sampleNanos;
    private final LongSupplier sinkWrittenBytes;
    private final AtomicLong peakQueuedBytes = new AtomicLong(); // producer -> reader
    private final AtomicLong intervalQueuedBytes = new AtomicLong(); // producer -> drain
    private final List<RunResult.Sample> series = new ArrayList<>(); // guarded by this
    private long peakOutstandingItems; // guarded by this
    private long requestCalls; // guarded by this
    private long lastSampleNanos = Long.MIN_VALUE / 2; // guarded by this

    RunRecorder(long originNanos, long sampleNanos, LongSupplier sinkWrittenBytes) {
        this.originNanos = originNanos;
        this.sampleNanos = sampleNanos;
        this.sinkWrittenBytes = sinkWrittenBytes;
    }

    /**
     * Runs {@code scenario} under {@code strategy} for real, as a {@link DemandRun}, blocking for its duration: a
     * {@link ScheduledPublisher} (endless) written through {@link ByteChannels#write} to a {@link ThrottledChannel},
     * cancelled at the scenario's duration; throughput is the bytes the sink completed over the elapsed time.
     * Returns only after the channel is closed and the producer thread has ended; fails if either does not
     * happen within {@link DemandRun#SHUTDOWN_TIMEOUT}.
     */
    static RunResult measure(Scenario scenario, StrategyCase strategy) throws InterruptedException {
        PacingClock clock = PacingClock.system();
        ThrottledChannel channel = new ThrottledChannel(scenario.sink(), clock);
        RunRecorder recorder = new RunRecorder(clock.nanoTime(), SAMPLE_NANOS, channel::writtenBytes);
        ScheduledPublisher producer = new ScheduledPublisher(
                Long.MAX_VALUE, scenario.itemBytes(), scenario.producer(), scenario.emission(), clock, recorder);
        WriteOptions options =
                WriteOptions.defaults().withDemand(strategy.strategy()).withMaxQueuedBytes(scenario.maxQueuedBytes());
        DemandRun.Result run = DemandRun.run(
                scenario.name() + " / " + strategy.name(),
                List.of(channel),
                stream -> producer,
                sluiceWrite(options),
                recorder,
                scenario.durationNanos());
        if (!producer.awaitThreads(DemandRun.SHUTDOWN_TIMEOUT)) {
            throw new IllegalStateException(
                    "the producer did not stop within " + DemandRun.SHUTDOWN_TIMEOUT + " after cancel");
        }
        return recorder.result(scenario.name(), strategy.name(), run.elapsedNanos(), run.writtenBytes());
    }

    /** sluice's writer as a {@link DemandRun.Write}: {@link ByteChannels#write} with {@code options}, telling every pass. */
    static DemandRun.Write sluiceWrite(WriteOptions options) {
        return (sink, body, listener) -> ByteChannels.write(
                sink,
                body,
                options.withListener(pass -> listener.onPass(
                        pass.queuedBytes(),
                        pass.windowItems(),
                        pass.outstandingItems(),
                        pass.writtenBytes(),
                        pass.requestCalls())));
    }

    @Override
    public void emitted(long totalBytes) {
        long held = totalBytes - sinkWrittenBytes.getAsLong();
        peakQueuedBytes.accumulateAndGet(held, Math::max);
        intervalQueuedBytes.accumulateAndGet(held, Math::max);
    }

    @Override
    public void onPass(
            long queuedBytes, long windowItems, long outstandingItems, long writtenBytes, long requestCalls) {
        pass(System.nanoTime(), queuedBytes, windowItems, outstandingItems, writtenBytes, requestCalls);
    }

    /** {@link #onPass} at {@code nowNanos} on the recorder's clock. */
    synchronized void pass(
            long nowNanos,
            long queuedBytes,
            long windowItems,
            long outstandingItems,
            long writtenBytes,
            long requestCalls) {
        peakOutstandingItems = Math.max(peakOutstandingItems, outstandingItems);
        this.requestCalls = requestCalls;
        long now = nowNanos - originNanos;
        if (now - lastSampleNanos >= sampleNanos) {
            lastSampleNanos = now;
            long queued = Math.max(intervalQueuedBytes.getAndSet(0), queuedBytes);
            series.add(new RunResult.Sample(now, queued, windowItems, outstandingItems, writtenBytes));
        }
    }

    /** The run as its one producer saw it: the peak queued bytes are those it held ahead of the sink. */
    RunResult result(String scenario, String strategy, long elapsedNanos, long writtenBytes) {
        return result(scenario, strategy, elapsedNanos, writtenBytes, peakQueuedBytes.get());
    }

    /**
     * The recorded write's series and request figures with a run's totals, measured elsewhere: for a run of
     * many writes, the recorded one's passes beside what all of them wrote and queued.
     */
    synchronized RunResult result(
            String scenario, String strategy, long elapsedNanos, long writtenBytes, long peakQueuedBytes) {
        return new RunResult(
                scenario,
                strategy,
                elapsedNanos,
                writtenBytes,
                peakQueuedBytes,
                peakOutstandingItems,
                requestCalls,
                series);
    }
}
