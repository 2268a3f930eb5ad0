package io.sluice.bench.adaptive;

import io.sluice.ReactiveFile;
import io.sluice.ReadOptions;
import io.sluice.lab.DemandRun;
import io.sluice.lab.PacingClock;
import io.sluice.lab.ScheduledPublisher;
import io.sluice.lab.ThrottledChannel;
import io.sluice.lab.ThrottledSink;
import org.reactivestreams.Publisher;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.IntFunction;
import java.util.stream.Stream;

/**
 * Runs {@link SharedSink} for real: for one kind of producers, every strategy in turn, each run a
 * {@link DemandRun} of {@code streams} writes through sluice's writer ({@link RunRecorder#sluiceWrite}) into channels of one
 * {@link ThrottledSink}, with stream 0's passes recorded by a {@link RunRecorder} as a single-stream scenario's
 * are. Measured: the aggregate MiB/s (all bytes over the time until the last write ended), the peak of the
 * bytes queued in all writers together, and from stream 0's series its window's response to the sink's
 * switches. Blocks for the run; used by one thread.
 */
final class SharedSinkRun {

    private SharedSinkRun() {}

    /**
     * Every strategy of {@link SharedSink#strategies()} on {@code producers}, {@code size.rounds()} rounds each,
     * in turn, after a warm-up when {@code warmUp} (every strategy once on a sixteenth of the bytes, unreported,
     * so that the first strategy measured does not pay alone for class loading and compilation). Returns one
     * result per strategy, in their order, each over all its rounds.
     */
    static List<SharedSinkResult> run(SharedSink size, SharedSink.Producers producers, boolean warmUp)
            throws IOException, InterruptedException {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "shared-sink-clients");
            thread.setDaemon(true);
            return thread;
        });
        Path source = null;
        try {
            if (producers == SharedSink.Producers.UNPACED) {
                source = Files.createTempFile("sluice-shared-sink-", ".bin");
                writeRandom(source, size.bytesEach());
            }
            Path file = source;
            Bodies bodies = (bytes, stream) -> producers == SharedSink.Producers.PACED
                    ? ScheduledPublisher.timed(
                            bytes,
                            producers.chunkBytes,
                            RateSchedule.constantMiBps(SharedSink.PRODUCER_MIB_PER_SECOND),
                            SharedSink.CLIENT_BURST_BYTES,
                            timer,
                            PacingClock.system())
                    : ReactiveFile.of(file).read(ReadOptions.range(0, bytes));
            List<StrategyCase> strategies = SharedSink.strategies();
            if (warmUp) {
                SharedSink small = size.withBytesEach(size.bytesEach() / 16);
                for (StrategyCase strategy : strategies) {
                    once(small, producers, strategy, bodies);
                }
            }
            List<SharedSinkResult> results = new ArrayList<>();
            for (int round = 1; round <= size.rounds(); round++) {
                for (int i = 0; i < strategies.size(); i++) {
                    SharedSinkResult result = once(size, producers, strategies.get(i), bodies);
                    if (round == 1) {
                        results.add(result);
                    } else {
                        results.set(i, results.get(i).combine(result));
                    }
                }
            }
            return results;
        } finally {
            timer.shutdownNow();
            if (source != null) {
                Files.deleteIfExists(source);
            }
        }
    }

    /** A write's body: {@code bytes} for stream {@code stream}. */
    @FunctionalInterface
    private interface Bodies {
        Publisher<ByteBuffer> body(long bytes, int stream);
    }

    private static SharedSinkResult once(
            SharedSink size, SharedSink.Producers producers, StrategyCase strategy, Bodies bodies)
            throws InterruptedException {
        // Every write draws on this one budget, as uploads on one disk.
        ThrottledSink sink = new ThrottledSink(size.sink(), PacingClock.system(), SharedSink.MAX_WRITE_BYTES);
        RunRecorder streamZero = new RunRecorder(sink.originNanos(), RunRecorder.SAMPLE_NANOS, () -> 0);
        List<ThrottledChannel> channels =
                Stream.generate(sink::channel).limit(size.streams()).toList();
        IntFunction<Publisher<ByteBuffer>> body = stream -> bodies.body(size.bytesEach(), stream);
        DemandRun.Result run = DemandRun.run(
                "shared sink, " + producers.label + ", " + strategy.name(),
                channels,
                body,
                RunRecorder.sluiceWrite(SharedSink.options(strategy)),
                streamZero,
                0);
        Scenario scenario = size.streamZero(producers, strategy, run.elapsedNanos());
        RunResult series = streamZero.result(
                scenario.name(), strategy.name(), run.elapsedNanos(), run.writtenBytes(), run.peakQueuedBytes());
        return SharedSinkResult.of(size, producers, strategy.name(), run, scenario, series);
    }

    /** {@code bytes} of seeded random content: what the unpaced writes read. */
    private static void writeRandom(Path file, long bytes) throws IOException {
        Random random = new Random(7);
        byte[] block = new byte[1 << 20];
        try (OutputStream out = Files.newOutputStream(file)) {
            for (long left = bytes; left > 0; left -= block.length) {
                random.nextBytes(block);
                out.write(block, 0, (int) Math.min(block.length, left));
            }
        }
    }
}
