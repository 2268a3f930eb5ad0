package io.sluice.properties;

import io.sluice.WriteOptions;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The write path end to end, through the public entry points: for any sequence of item sizes
 * (empty, one byte, growing to 256 KiB, shrinking, at the staging and chunk boundaries), held in
 * any kind of buffer, emitted synchronously inside {@code request} or from another thread, on any
 * executor, into any target, the target holds exactly the items' bytes in order, the stage
 * completes once with the byte count, and the target is closed when a dependent of the stage runs.
 */
class WritePathPropertyTest {

    @Provide
    Arbitrary<List<Integer>> sizes() {
        return Items.sizes();
    }

    @Provide
    Arbitrary<ExecutorKind> executors() {
        return Arbitraries.of(ExecutorKind.available());
    }

    @Provide
    Arbitrary<Long> caps() {
        return Arbitraries.of(64L * 1024, WriteOptions.DEFAULT_MAX_QUEUED_BYTES);
    }

    @Property(tries = 300)
    void theTargetHoldsExactlyTheItemsAndIsClosedBeforeDependentsRun(
            @ForAll("sizes") List<Integer> sizes,
            @ForAll Items.Kind buffers,
            @ForAll Upstream.Emission emission,
            @ForAll WriteTarget.Kind targetKind,
            @ForAll("executors") ExecutorKind executorKind,
            @ForAll("caps") long cap)
            throws Exception {
        List<ByteBuffer> items = Items.buffers(sizes, buffers, sizes.hashCode());
        byte[] data = Items.concat(items);
        Executor executor = executorKind.create();
        WriteOptions options = WriteOptions.defaults().withMaxQueuedBytes(cap);
        if (executor != null) {
            options = options.withExecutor(executor);
        }
        try (WriteTarget target = WriteTarget.create(targetKind, sizes.size())) {
            Upstream upstream = new Upstream(items, emission, false);
            AtomicInteger dependentRuns = new AtomicInteger();
            AtomicReference<List<String>> openInDependent = new AtomicReference<>();
            CountDownLatch dependentRan = new CountDownLatch(1);

            CompletableFuture<Long> stage = target.write(upstream, options).toCompletableFuture();
            stage.whenComplete((count, error) -> {
                dependentRuns.incrementAndGet();
                openInDependent.set(target.openNow());
                dependentRan.countDown();
            });

            long count = stage.get(30, TimeUnit.SECONDS);
            Statistics.label("bytes")
                    .collect(data.length < 64 * 1024 ? "< 64 KiB" : data.length < 1024 * 1024 ? "< 1 MiB" : ">= 1 MiB");
            assertTrue(dependentRan.await(30, TimeUnit.SECONDS), "the stage's dependent never ran");
            upstream.awaitEmitterEnd();
            ExecutorKind.quiesce(executor);
            assertEquals(data.length, count, "the byte count");
            assertEquals(List.of(), openInDependent.get(), "open when a dependent of the completed stage ran");
            assertArrayEquals(target.expected(data), target.contents(), "the target's bytes");
            assertEquals(1, dependentRuns.get(), "the stage completed more than once");
            assertNull(upstream.violation.get(), upstream.violation.get());
            assertTrue(upstream.completed.get(), "the upstream never completed");
            assertEquals(0, upstream.cancels.get(), "a completed upstream was cancelled");
            if (targetKind == WriteTarget.Kind.FILE_ATOMIC) {
                assertEquals(List.of(), target.temporaries(), "a temporary left by a completed atomic write");
            }
        }
    }
}
