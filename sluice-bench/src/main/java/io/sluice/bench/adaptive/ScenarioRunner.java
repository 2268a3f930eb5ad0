package io.sluice.bench.adaptive;

import io.sluice.ByteChannels;
import io.sluice.WriteOptions;
import io.sluice.testkit.DemandRun;
import io.sluice.testkit.PacingClock;
import io.sluice.testkit.ScheduledPublisher;
import io.sluice.testkit.ThrottledChannel;

import java.util.List;

/**
 * Runs one scenario with one strategy for real, as a {@link DemandRun}: a {@link ScheduledPublisher}
 * (endless) written through {@link ByteChannels#write} to a {@link ThrottledChannel}, cancelled at
 * the scenario's duration. Throughput is the bytes the sink completed over the elapsed time.
 *
 * <p><b>Resources:</b> returns only after the channel is closed and the producer thread has
 * ended; fails if either does not happen within {@link DemandRun#SHUTDOWN_TIMEOUT}.
 */
public final class ScenarioRunner {

    /** The time between chart samples. */
    public static final long SAMPLE_NANOS = 5_000_000;

    private ScenarioRunner() {
    }

    /** Runs {@code scenario} under {@code strategy}; blocks for the scenario's duration. */
    public static RunResult run(Scenario scenario, StrategyCase strategy) throws InterruptedException {
        PacingClock clock = PacingClock.system();
        ThrottledChannel channel = new ThrottledChannel(scenario.sink(), clock);
        RunRecorder recorder = new RunRecorder(clock.nanoTime(), SAMPLE_NANOS, channel::writtenBytes);
        ScheduledPublisher producer = new ScheduledPublisher(Long.MAX_VALUE, scenario.itemBytes(),
                scenario.producer(), scenario.emission(), clock, recorder);
        WriteOptions options = WriteOptions.defaults()
                .withDemand(strategy.strategy())
                .withMaxQueuedBytes(scenario.maxQueuedBytes());
        DemandRun.Result run = DemandRun.run(scenario.name() + " / " + strategy.name(), List.of(channel),
                stream -> producer, (sink, body, listener) -> ByteChannels.write(sink, body,
                        options.withListener(s -> listener.onPass(s.queuedBytes(), s.windowItems(),
                                s.outstandingItems(), s.writtenBytes(), s.requestCalls()))),
                recorder, scenario.durationNanos());
        if (!producer.awaitThreads(DemandRun.SHUTDOWN_TIMEOUT)) {
            throw new IllegalStateException("the producer did not stop within " + DemandRun.SHUTDOWN_TIMEOUT
                    + " after cancel");
        }
        return recorder.result(scenario.name(), strategy.name(), run.elapsedNanos(), run.writtenBytes());
    }
}
