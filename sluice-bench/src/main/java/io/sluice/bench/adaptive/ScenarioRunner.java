package io.sluice.bench.adaptive;

import io.sluice.ByteChannels;
import io.sluice.WriteOptions;
import io.sluice.testkit.PacingClock;
import io.sluice.testkit.ScheduledPublisher;
import io.sluice.testkit.ThrottledChannel;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs one scenario with one strategy for real: a {@link ScheduledPublisher} (endless) written
 * through {@link ByteChannels#write} to a {@link ThrottledChannel}; at the scenario's duration the
 * write is cancelled. Throughput is the bytes the sink completed over the elapsed time.
 *
 * <p><b>Resources:</b> returns only after the channel is closed and the producer thread has
 * ended; fails if either does not happen within {@link #SHUTDOWN_TIMEOUT}.
 */
public final class ScenarioRunner {

    /** How long a cancelled run may take to close its channel and stop its producer. */
    public static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(20);
    /** The time between chart samples. */
    public static final long SAMPLE_NANOS = 5_000_000;

    private ScenarioRunner() {
    }

    /** Runs {@code scenario} under {@code strategy}; blocks for the scenario's duration. */
    public static RunResult run(Scenario scenario, StrategyCase strategy) throws InterruptedException {
        PacingClock clock = PacingClock.system();
        long origin = clock.nanoTime();
        ThrottledChannel channel = new ThrottledChannel(scenario.sink(), clock);
        RunRecorder recorder = new RunRecorder(origin, SAMPLE_NANOS, channel::writtenBytes);
        ScheduledPublisher producer = new ScheduledPublisher(scenario.itemBytes(), Long.MAX_VALUE,
                scenario.producer(), scenario.emission(), clock, recorder);
        WriteOptions options = WriteOptions.defaults()
                .withDemand(strategy.strategy())
                .withMaxQueuedBytes(scenario.maxQueuedBytes())
                .withListener(recorder);
        CompletableFuture<Long> write = ByteChannels.write(channel, producer, options).toCompletableFuture();
        try {
            Long bytes = write.get(scenario.durationNanos(), TimeUnit.NANOSECONDS);
            throw new IllegalStateException("the endless write to " + channel + " completed with " + bytes + " bytes");
        } catch (TimeoutException expected) {
            write.cancel(true);
        } catch (ExecutionException e) {
            throw new IllegalStateException(scenario.name() + " / " + strategy.name() + " failed: " + e.getCause(),
                    e.getCause());
        }
        long elapsed = clock.nanoTime() - origin;
        long written = channel.writtenBytes();
        if (!channel.awaitClosed(SHUTDOWN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("the cancelled write did not close " + channel + " within "
                    + SHUTDOWN_TIMEOUT);
        }
        if (!producer.awaitThreads(SHUTDOWN_TIMEOUT)) {
            throw new IllegalStateException("the producer did not stop within " + SHUTDOWN_TIMEOUT
                    + " after cancel");
        }
        return recorder.result(scenario.name(), strategy.name(), elapsed, written);
    }
}
