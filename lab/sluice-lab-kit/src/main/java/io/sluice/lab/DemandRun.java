package io.sluice.lab;

import org.reactivestreams.Publisher;

import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

/**
 * The demand scenarios' one run: {@code streams} publishers, each written by the caller's
 * {@link Write} (sluice's writer: this module does not depend on it) into a {@link ThrottledChannel}.
 * Measured: the elapsed time, the bytes the channels took, whether a write ran out of memory, and
 * the peak over writer passes of the bytes queued in all writers (summed over every stream's latest
 * report, so it may mix instants by a drain pass). {@link #run} blocks; listeners run on the drains.
 */
public final class DemandRun {

    /** How long a finite run may take. */
    private static final long TIMEOUT_MINUTES = 10;
    /** How long a cancelled run's channels may take to close. */
    public static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(20);

    /** Told a {@code WriteSnapshot}'s figures after each writer pass, on that write's drain; must be fast. */
    @FunctionalInterface
    public interface PassListener {
        void onPass(long queuedBytes, long windowItems, long outstandingItems, long writtenBytes, long requestCalls);
    }

    /** Starts one write of {@code body} into {@code channel} that tells every pass to the listener. */
    @FunctionalInterface
    public interface Write {
        CompletionStage<Long> start(WritableByteChannel channel, Publisher<ByteBuffer> body, PassListener listener);
    }

    /** What a run came to; {@code outOfMemory}: a finite write failed so, and the others were cancelled. */
    public record Result(long elapsedNanos, long writtenBytes, long peakQueuedBytes, boolean outOfMemory) {

        /** Throughput in MiB/s. */
        public double mibPerSecond() {
            return writtenBytes / (1024.0 * 1024.0) / (elapsedNanos / 1e9);
        }
    }

    private DemandRun() {}

    /**
     * Runs one {@code write} per stream {@code i}, of {@code bodies.apply(i)} into
     * {@code channels.get(i)}, telling {@code stream0} stream 0's passes. {@code durationNanos}
     * positive: the bodies are endless (the bench), cancelled then, and every channel must close
     * within {@link #SHUTDOWN_TIMEOUT}; 0: they are finite (the server) and the run waits for all.
     *
     * @throws IllegalStateException if a write fails (but for a finite one's OutOfMemoryError), an
     *     endless one completes, or a cancelled channel does not close
     */
    public static Result run(
            String name,
            List<ThrottledChannel> channels,
            IntFunction<Publisher<ByteBuffer>> bodies,
            Write write,
            PassListener stream0,
            long durationNanos)
            throws InterruptedException {
        AtomicLongArray queued = new AtomicLongArray(channels.size()); // drains -> drains
        AtomicLong peak = new AtomicLong(); // drains -> caller, after the run
        List<CompletableFuture<Long>> writes = new ArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < channels.size(); i++) {
            int stream = i;
            writes.add(write.start(
                            channels.get(i), bodies.apply(i), (queuedBytes, window, outstanding, written, calls) -> {
                                queued.set(stream, queuedBytes);
                                peak.accumulateAndGet(
                                        IntStream.range(0, queued.length())
                                                .mapToLong(queued::get)
                                                .sum(),
                                        Math::max);
                                if (stream == 0) {
                                    stream0.onPass(queuedBytes, window, outstanding, written, calls);
                                }
                            })
                    .toCompletableFuture());
        }
        boolean outOfMemory = false;
        long deadline = durationNanos > 0 ? start + durationNanos : start + TimeUnit.MINUTES.toNanos(TIMEOUT_MINUTES);
        for (CompletableFuture<Long> future : writes) {
            try {
                Long bytes = future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (durationNanos > 0) {
                    throw new IllegalStateException(name + ": the endless write completed with " + bytes + " bytes");
                }
            } catch (TimeoutException e) {
                if (durationNanos == 0) {
                    throw new IllegalStateException(
                            name + ": a write did not end within " + TIMEOUT_MINUTES + " minutes", e);
                }
            } catch (ExecutionException e) {
                if (durationNanos > 0 || !(e.getCause() instanceof OutOfMemoryError)) {
                    throw new IllegalStateException(name + " failed: " + e.getCause(), e.getCause());
                }
                outOfMemory = true;
            }
        }
        if (durationNanos > 0 || outOfMemory) {
            writes.forEach(future -> future.cancel(true));
        }
        long elapsed = System.nanoTime() - start;
        long written =
                channels.stream().mapToLong(ThrottledChannel::writtenBytes).sum();
        if (durationNanos > 0) {
            for (ThrottledChannel channel : channels) {
                if (!channel.awaitClosed(SHUTDOWN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new IllegalStateException(
                            name + ": the cancelled write did not close " + channel + " within " + SHUTDOWN_TIMEOUT);
                }
            }
        }
        return new Result(elapsed, written, peak.get(), outOfMemory);
    }
}
