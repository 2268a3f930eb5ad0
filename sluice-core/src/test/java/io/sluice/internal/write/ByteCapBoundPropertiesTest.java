package io.sluice.internal.write;

import io.sluice.WriteOptions;
import io.sluice.demand.Demand;
import io.sluice.demand.DemandStrategy;
import io.sluice.testing.ManualExecutor;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The byte bound {@code WriteOptions} states (W4), for every sequence of item sizes: growing,
 * shrinking, empty and one-byte items, under every bounded strategy, with the upstream's deliveries
 * and the drain's passes interleaved at random. Content and order are exact, and the write ends
 * exactly once.
 */
class ByteCapBoundPropertiesTest {

    @Provide
    Arbitrary<List<Integer>> sizes() {
        Arbitrary<Integer> size = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(2, Arbitraries.just(0)),
                net.jqwik.api.Tuple.of(3, Arbitraries.just(1)),
                net.jqwik.api.Tuple.of(10, Arbitraries.integers().between(2, 4096)),
                net.jqwik.api.Tuple.of(5, Arbitraries.integers().between(4097, 256 * 1024)));
        return size.list().ofMinSize(1).ofMaxSize(300);
    }

    @Provide
    Arbitrary<DemandStrategy> strategies() {
        return Arbitraries.of(
                Demand.adaptive(),
                Demand.fixed(16, 4),
                Demand.fixed(256, 3),
                Demand.oneByOne(),
                Demand.fixed(Long.MAX_VALUE, 0));
    }

    @Provide
    Arbitrary<Long> caps() {
        return Arbitraries.of(1024L, 64 * 1024L, 1024 * 1024L);
    }

    @Property(tries = 300)
    void heldBytesStayWithinTheStatedBound(
            @ForAll("sizes") List<Integer> sizes,
            @ForAll("strategies") DemandStrategy strategy,
            @ForAll("caps") long cap,
            @ForAll @Size(max = 2000) List<@IntRange(min = 0, max = 3) Integer> schedule) {
        long largest = sizes.stream().mapToLong(Integer::longValue).max().orElse(0);
        long firstNonEmpty = sizes.stream().filter(size -> size > 0).findFirst().orElse(0);
        long window = strategy.newController().windowItems();
        long bound = firstNonEmpty == 0
                ? 0
                : Math.max(largest, cap + Math.min(window, cap / firstNonEmpty) * (largest - firstNonEmpty));
        run(sizes, WriteOptions.defaults().withDemand(strategy).withMaxQueuedBytes(cap), schedule, bound);
    }

    @Property(tries = 200)
    void aDeclaredLargestItemMakesTheCapHard(
            @ForAll("sizes") List<Integer> sizes,
            @ForAll("strategies") DemandStrategy strategy,
            @ForAll("caps") long cap,
            @ForAll @Size(max = 2000) List<@IntRange(min = 0, max = 3) Integer> schedule) {
        long declared =
                Math.max(1, sizes.stream().mapToLong(Integer::longValue).max().orElse(1));
        run(
                sizes,
                WriteOptions.defaults()
                        .withDemand(strategy)
                        .withMaxQueuedBytes(cap)
                        .withMaxItemBytes(declared),
                schedule,
                Math.max(cap, declared));
    }

    /**
     * Delivers {@code sizes} as requested and runs drain passes, in the order the schedule draws
     * (0-1: deliver the next item if one is requested, 2-3: run one drain task), then finishes.
     */
    private static void run(List<Integer> sizes, WriteOptions options, List<Integer> schedule, long bound) {
        ManualExecutor executor = new ManualExecutor();
        RecordingSink sink = new RecordingSink();
        ManualUpstream upstream = new ManualUpstream();
        ChannelWriteSubscriber writer = new ChannelWriteSubscriber(sink, options, executor, "property");
        ByteArrayOutputStream sent = new ByteArrayOutputStream();
        writer.onSubscribe(upstream);
        int next = 0;
        long delivered = 0;
        boolean completed = false;
        for (int step = 0; !writer.result().isDone(); step++) {
            boolean deliver = step < schedule.size() ? schedule.get(step) < 2 : (step % 2 == 0);
            if (deliver && next < sizes.size() && upstream.requested > next) {
                ByteBuffer item = item(next, sizes.get(next));
                sent.writeBytes(item.duplicate().array());
                delivered += item.remaining();
                writer.onNext(item);
                next++;
            } else if (next == sizes.size() && !completed) {
                writer.onComplete();
                completed = true;
            } else if (!executor.runNext() && !(next < sizes.size() && upstream.requested > next)) {
                throw new AssertionError("stalled after " + next + " of " + sizes.size() + " items");
            }
            long held = delivered - sink.bytes;
            assertTrue(
                    held <= bound, "held " + held + " bytes > bound " + bound + " after item " + next + " of " + sizes);
            assertTrue(step < 10_000_000, "no progress");
        }
        assertEquals(delivered, (long) writer.result().join());
        assertArrayEquals(sent.toByteArray(), sink.content.toByteArray(), "content and order");
        assertEquals(1, sink.closes, "closed once");
    }

    private static ByteBuffer item(int index, int size) {
        byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++) {
            bytes[i] = (byte) (index * 31 + i);
        }
        return ByteBuffer.wrap(bytes);
    }
}
