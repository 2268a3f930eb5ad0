package io.sluice.internal.write;

import io.sluice.WriteListener;
import io.sluice.WriteOptions;
import io.sluice.WriteSnapshot;
import io.sluice.demand.Demand;
import io.sluice.testing.ManualExecutor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The writer's promises where a hostile upstream, executor or timing could break them: W4 and the
 * larger-item signal, W5-W7, and an outside completion stopping the write before its dependents run.
 */
@Timeout(60)
class WriterGuaranteesTest {

    private final ManualExecutor executor = new ManualExecutor();
    private final RecordingSink sink = new RecordingSink();
    private final ManualUpstream upstream = new ManualUpstream();

    private ChannelWriteSubscriber writer(WriteOptions options) {
        return new ChannelWriteSubscriber(sink, options, executor, "test");
    }

    @Test
    void cancelAbortsTheSinkBeforeAnyDependentRuns_W6() {
        ChannelWriteSubscriber writer = writer(WriteOptions.defaults());
        writer.onSubscribe(upstream);
        executor.runAll();
        writer.onNext(ByteBuffer.allocate(10));
        AtomicBoolean abortedWhenDependentRan = new AtomicBoolean();
        writer.result().whenComplete((bytes, error) -> abortedWhenDependentRan.set(sink.aborts == 1));
        assertTrue(writer.result().cancel(true));
        assertTrue(abortedWhenDependentRan.get(), "the sink was aborted before the dependent ran");
        executor.runAll();
        assertEquals(0, sink.writeCalls, "nothing queued is written after the cancel");
        assertEquals(1, sink.closes);
        assertTrue(upstream.cancelled, "upstream cancelled, from the drain (W1)");
    }

    @Test
    void nullItemThrowsAndEndsTheWrite_2_13() {
        ChannelWriteSubscriber writer = writer(WriteOptions.defaults());
        writer.onSubscribe(upstream);
        executor.runAll();
        assertThrows(NullPointerException.class, () -> writer.onNext(null));
        executor.runAll();
        assertTrue(writer.result().isDone(), "the write ended");
        CompletionException failed =
                assertThrows(CompletionException.class, () -> writer.result().join());
        assertInstanceOf(NullPointerException.class, failed.getCause());
        assertTrue(
                failed.getCause().getMessage().contains("§2.13"),
                failed.getCause().getMessage());
        assertEquals(1, sink.closes, "the target is closed");
        assertTrue(upstream.cancelled, "§2.13: the subscription is considered cancelled");
    }

    @Test
    void nullErrorThrowsAndEndsTheWrite_2_13() {
        ChannelWriteSubscriber writer = writer(WriteOptions.defaults());
        writer.onSubscribe(upstream);
        executor.runAll();
        assertThrows(NullPointerException.class, () -> writer.onError(null));
        executor.runAll();
        assertTrue(writer.result().isDone(), "the write ended");
        CompletionException failed =
                assertThrows(CompletionException.class, () -> writer.result().join());
        assertInstanceOf(NullPointerException.class, failed.getCause());
        assertEquals(1, sink.closes);
    }

    @Test
    void nullSubscriptionThrowsAndEndsTheWrite_2_13() {
        ChannelWriteSubscriber writer = writer(WriteOptions.defaults());
        assertThrows(NullPointerException.class, () -> writer.onSubscribe(null));
        executor.runAll();
        assertTrue(writer.result().isDone(), "the write ended");
        assertThrows(CompletionException.class, () -> writer.result().join());
    }

    @Test
    void aPassWritesABoundedNumberOfItemsThenYields_W7() {
        ChannelWriteSubscriber writer = writer(WriteOptions.defaults());
        ByteBuffer one = ByteBuffer.allocate(1);
        SyncUpstream source = new SyncUpstream(writer, 1_000_000, index -> one.duplicate());
        writer.onSubscribe(source);
        assertTrue(executor.runNext());
        assertTrue(sink.items <= WriteLedger.YIELD_AFTER_ITEMS, "one pass wrote " + sink.items + " items");
        assertEquals(1, executor.queued(), "the pass yielded: the write is queued behind other tasks");
        executor.runAll();
        assertEquals(1_000_000, sink.items);
        assertEquals(1_000_000L, writer.result().join());
    }

    @Test
    void zeroLengthItemsDoNotHoldTheExecutor_W7() {
        ChannelWriteSubscriber writer = writer(WriteOptions.defaults());
        SyncUpstream source = new SyncUpstream(writer, 100_000, index -> ByteBuffer.allocate(0));
        writer.onSubscribe(source);
        assertTrue(executor.runNext());
        assertEquals(1, executor.queued(), "the pass yielded although no byte was written");
        executor.runAll();
        assertEquals(0L, writer.result().join());
        assertEquals(100_000, source.emitted());
    }

    @Test
    void anotherTaskOnASingleThreadRunsBeforeALongWriteEnds_W7() throws Exception {
        ExecutorService single = Executors.newSingleThreadExecutor();
        try {
            ChannelWriteSubscriber writer =
                    new ChannelWriteSubscriber(new RecordingSink(), WriteOptions.defaults(), single, "test");
            ByteBuffer one = ByteBuffer.allocate(1);
            writer.onSubscribe(new SyncUpstream(writer, 2_000_000, index -> one.duplicate()));
            AtomicBoolean writeDoneWhenOtherRan = new AtomicBoolean(true);
            single.submit(() -> writeDoneWhenOtherRan.set(writer.result().isDone()))
                    .get(30, TimeUnit.SECONDS);
            assertEquals(2_000_000L, writer.result().get(30, TimeUnit.SECONDS));
            assertFalse(writeDoneWhenOtherRan.get(), "the other task ran while the write was in progress");
        } finally {
            single.shutdownNow();
        }
    }

    @Test
    void manyYieldsOnADirectExecutorKeepTheStackFlat_W7() throws Exception {
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread smallStack = new Thread(
                null,
                () -> {
                    RecordingSink counting = new RecordingSink();
                    counting.recordContent = false;
                    ChannelWriteSubscriber writer =
                            new ChannelWriteSubscriber(counting, WriteOptions.defaults(), Runnable::run, "test");
                    ByteBuffer one = ByteBuffer.allocate(1);
                    writer.onSubscribe(new SyncUpstream(writer, 8_000_000, index -> one.duplicate()));
                    outcome.set(
                            writer.result().isDone()
                                    ? writer.result()
                                            .handle((written, error) -> error == null ? written : error)
                                            .join()
                                    : "not done; sink closes: " + counting.closes);
                },
                "small-stack",
                128 * 1024);
        smallStack.start();
        smallStack.join(TimeUnit.SECONDS.toMillis(50));
        assertEquals(8_000_000L, outcome.get(), "~1,000 yields on a 128 KiB stack");
    }

    @Test
    void fixedDemandOfLongMaxValueIsStillCapped_W4() {
        ChannelWriteSubscriber writer = writer(WriteOptions.defaults()
                .withDemand(Demand.fixed(Long.MAX_VALUE, 0))
                .withMaxQueuedBytes(64 * 1024));
        writer.onSubscribe(upstream);
        executor.runAll();
        assertEquals(1, upstream.requested, "the probe");
        writer.onNext(ByteBuffer.allocate(1024));
        executor.runAll();
        assertTrue(upstream.requested <= 1 + 64, "requested " + upstream.requested + " 1 KiB items under a 64 KiB cap");
    }

    @Test
    void declaredLargestItemBoundsTheFirstRequestAndRefusesLargerItems_W4() {
        ChannelWriteSubscriber writer = writer(WriteOptions.defaults()
                .withMaxQueuedBytes(1024 * 1024)
                .withMaxItemBytes(64 * 1024)
                .withDemand(Demand.fixed(1000, 10)));
        writer.onSubscribe(upstream);
        executor.runAll();
        assertEquals(16, upstream.requested, "1 MiB of 64 KiB items");
        writer.onNext(ByteBuffer.allocate(64 * 1024));
        writer.onNext(ByteBuffer.allocate(64 * 1024 + 1));
        executor.runAll();
        assertTrue(writer.result().isDone(), "the write ended");
        CompletionException failed =
                assertThrows(CompletionException.class, () -> writer.result().join());
        assertInstanceOf(IllegalArgumentException.class, failed.getCause());
        assertTrue(
                failed.getCause().getMessage().contains("65537"),
                failed.getCause().getMessage());
        assertTrue(upstream.cancelled);
        assertEquals(1, sink.closes);
    }

    @Test
    void anItemLargerThanAnySeenWithDemandOutstandingIsReported() {
        List<long[]> reports = new ArrayList<>();
        WriteListener listener = new WriteListener() {
            @Override
            public void onPass(WriteSnapshot snapshot) {}

            @Override
            public void onLargerItem(long itemBytes, long previousLargestBytes, long outstandingItems) {
                reports.add(new long[] {itemBytes, previousLargestBytes, outstandingItems});
            }
        };
        ChannelWriteSubscriber writer =
                writer(WriteOptions.defaults().withListener(listener).withDemand(Demand.fixed(10, 0)));
        writer.onSubscribe(upstream);
        executor.runAll();
        writer.onNext(ByteBuffer.allocate(1)); // the probe: nothing else outstanding
        executor.runAll();
        assertEquals(0, reports.size());
        writer.onNext(ByteBuffer.allocate(1000)); // 9 more outstanding, requested for 1-byte items
        executor.runAll();
        assertEquals(1, reports.size());
        assertEquals(1000, reports.get(0)[0]);
        assertEquals(1, reports.get(0)[1]);
        assertEquals(9, reports.get(0)[2]);
        writer.onNext(ByteBuffer.allocate(1000)); // not larger: no report
        executor.runAll();
        assertEquals(1, reports.size());
    }

    @Test
    void anExecutorThatThrowsSomethingElseFailsTheWriteInsteadOfHanging() {
        AtomicLong calls = new AtomicLong();
        ChannelWriteSubscriber writer = new ChannelWriteSubscriber(
                sink,
                WriteOptions.defaults(),
                task -> {
                    calls.incrementAndGet();
                    throw new IllegalStateException("pool is broken");
                },
                "test");
        writer.onSubscribe(upstream);
        assertTrue(writer.result().isDone(), "the write ended");
        CompletionException failed =
                assertThrows(CompletionException.class, () -> writer.result().join());
        assertInstanceOf(IllegalStateException.class, failed.getCause());
        assertEquals(1, calls.get());
    }

    @Test
    void cancelThatRacesAPassStopsTheDrainWithinTheBatchInFlight_W6() throws Exception {
        for (int round = 0; round < 500; round++) {
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                AtomicBoolean stageCancelled = new AtomicBoolean();
                AtomicLong writesAfterCancel = new AtomicLong();
                RecordingSink watched = new RecordingSink();
                watched.onWrite = () -> {
                    if (stageCancelled.get()) {
                        writesAfterCancel.incrementAndGet();
                    }
                };
                watched.recordContent = false;
                ChannelWriteSubscriber writer =
                        new ChannelWriteSubscriber(watched, WriteOptions.defaults(), pool, "test");
                writer.result().whenComplete((bytes, error) -> stageCancelled.set(true));
                ByteBuffer item = ByteBuffer.allocate(16);
                writer.onSubscribe(new SyncUpstream(writer, Long.MAX_VALUE, index -> item.duplicate()));
                Thread.onSpinWait();
                writer.result().cancel(true);
                pool.shutdown();
                assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
                assertThrows(CancellationException.class, () -> writer.result().join());
                // A sink that cannot be closed under a write (this one) may see the batch the drain had
                // already taken; a file sink's abort closes the channel, so not even that one reaches it.
                assertTrue(
                        writesAfterCancel.get() <= 1,
                        "round " + round + ": " + writesAfterCancel.get()
                                + " batches written after the stage was cancelled");
            } finally {
                pool.shutdownNow();
            }
        }
    }
}
