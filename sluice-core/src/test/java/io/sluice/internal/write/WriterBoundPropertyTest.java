package io.sluice.internal.write;

import io.sluice.WriteOptions;
import io.sluice.WriteSnapshot;
import io.sluice.demand.Demand;
import io.sluice.demand.DemandStrategy;
import io.sluice.testing.ManualExecutor;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * W3 and W4 under random producer and channel speeds: after every event (an item sent, a drain
 * pass run) the writer holds at most the strategy's largest window in items, and at most
 * {@code max(cap, item)} queued bytes for same-size items ({@code 2 * cap} for items within a
 * factor of two of each other). Seeded, so a failure names its seed.
 */
class WriterBoundPropertyTest {

    private static final int SEEDS = 60;
    /** Items are views of one buffer: the writer reads position..limit and leaves the buffer as is. */
    private static final ByteBuffer BACKING = ByteBuffer.allocate(300 * 1024);

    static Stream<Arguments> boundedStrategies() {
        return Stream.of(
                Arguments.of(
                        "adaptive",
                        Demand.adaptive(),
                        Demand.adaptive().maxAmount() + Demand.adaptive().maxShift()),
                Arguments.of("fixed(16, 4)", Demand.fixed(16, 4), 20),
                Arguments.of("fixed(256, 3)", Demand.fixed(256, 3), 259),
                Arguments.of("oneByOne", Demand.oneByOne(), 1));
    }

    @ParameterizedTest(name = "{0}, same-size items")
    @MethodSource("boundedStrategies")
    void heldItemsAndQueuedBytesStayBounded(String name, DemandStrategy strategy, long maxWindow) {
        int[] sizes = {1, 100, 1024, 4096, 64 * 1024, 300 * 1024};
        long[] caps = {4 * 1024, 64 * 1024, 1024 * 1024};
        for (long seed = 0; seed < SEEDS; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            int size = sizes[random.nextInt(sizes.length)];
            long cap = caps[random.nextInt(caps.length)];
            run(name, strategy, maxWindow, seed, random, size, size, cap, Math.max(cap, size));
        }
    }

    @ParameterizedTest(name = "{0}, sizes within 2x")
    @MethodSource("boundedStrategies")
    void queuedBytesStayWithinTwiceTheCapForItemsWithinAFactorOfTwo(
            String name, DemandStrategy strategy, long maxWindow) {
        for (long seed = 0; seed < SEEDS; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            long cap = 64 * 1024;
            run(name, strategy, maxWindow, seed, random, 2048, 4096, cap, 2 * cap);
        }
    }

    private static void run(
            String name,
            DemandStrategy strategy,
            long maxWindow,
            long seed,
            SplittableRandom random,
            int minSize,
            int maxSize,
            long cap,
            long byteBound) {
        ManualExecutor executor = new ManualExecutor();
        RecordingSink sink = new RecordingSink();
        sink.recordContent = false;
        ManualUpstream upstream = new ManualUpstream();
        long[] windowAtRequest = {Long.MAX_VALUE};
        ChannelWriteSubscriber writer = new ChannelWriteSubscriber(
                sink,
                WriteOptions.defaults()
                        .withDemand(strategy)
                        .withMaxQueuedBytes(cap)
                        .withListener((WriteSnapshot snapshot) -> {
                            if (snapshot.lastRequest() > 0) {
                                long held = snapshot.queuedItems() + snapshot.outstandingItems();
                                if (held > snapshot.windowItems()) {
                                    fail(name + " seed " + seed + ": W3: held " + held + " after a request, window "
                                            + snapshot.windowItems());
                                }
                                windowAtRequest[0] = snapshot.windowItems();
                            }
                        }),
                executor,
                "property");
        writer.onSubscribe(upstream);
        long received = 0;
        long receivedBytes = 0;
        long total = 2_000 + random.nextInt(3_000);
        double producerBias = random.nextDouble(); // how often the producer moves vs the channel
        while (received < total) {
            if (upstream.requested > received && random.nextDouble() < producerBias) {
                int size = minSize + random.nextInt(maxSize - minSize + 1);
                writer.onNext(BACKING.slice(0, size));
                received++;
                receivedBytes += size;
            } else if (!executor.runNext() && upstream.requested == received) {
                fail(name + " seed " + seed + ": stalled: nothing requested, nothing to run");
            }
            long held = upstream.requested - sink.items;
            long queuedBytes = receivedBytes - sink.bytes;
            if (held > maxWindow) {
                fail(name + " seed " + seed + ": held " + held + " items > window " + maxWindow);
            }
            if (queuedBytes > byteBound) {
                fail(name + " seed " + seed + ": W4: queued " + queuedBytes + " bytes > " + byteBound + " (cap " + cap
                        + ", items " + minSize + ".." + maxSize + ")");
            }
        }
        writer.onComplete();
        executor.runAll();
        assertEquals(receivedBytes, writer.result().join(), name + " seed " + seed);
        assertTrue(upstream.illegal == null, upstream.illegal);
    }
}
