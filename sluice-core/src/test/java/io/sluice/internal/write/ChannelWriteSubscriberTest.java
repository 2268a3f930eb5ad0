package io.sluice.internal.write;

import io.sluice.WriteOptions;
import io.sluice.WriteSnapshot;
import io.sluice.demand.Demand;
import io.sluice.testing.ManualExecutor;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The writer's invariants W1-W7, driven step by step on a manual executor. */
class ChannelWriteSubscriberTest {

    private final ManualExecutor executor = new ManualExecutor();
    private final RecordingSink sink = new RecordingSink();
    private final ManualUpstream upstream = new ManualUpstream();
    private final List<WriteSnapshot> snapshots = new ArrayList<>();

    private ChannelWriteSubscriber writer(WriteOptions options) {
        return new ChannelWriteSubscriber(sink, options.withListener(snapshots::add), executor, "test");
    }

    private static ByteBuffer item(int size) {
        return ByteBuffer.allocate(size);
    }

    /** Subscribes, delivers one 7-byte item and completes upstream, running the drain after each step. */
    private void writeSevenBytesAndComplete(ChannelWriteSubscriber writer) {
        writer.onSubscribe(upstream);
        executor.runAll();
        writer.onNext(item(7));
        writer.onComplete();
        executor.runAll();
    }

    @Test
    void firstRequestIsIssuedFromTheDrainNotFromOnSubscribe_W1() {
        ChannelWriteSubscriber writer = writer(WriteOptions.defaults());
        writer.onSubscribe(upstream);
        assertEquals(0, upstream.requestCalls, "no request on the subscribing thread");
        executor.runAll();
        assertEquals(1, upstream.requested, "one probe item before the item size is known (W4)");
        assertEquals(1, sink.opens);
    }

    @Test
    void onNextOnlyEnqueues_W2() {
        ChannelWriteSubscriber writer = writer(WriteOptions.defaults());
        writer.onSubscribe(upstream);
        executor.runAll();
        writer.onNext(item(10));
        assertEquals(0, sink.writeCalls, "no I/O inside onNext");
        assertEquals(1, executor.queued());
        executor.runAll();
        assertEquals(1, sink.writeCalls);
    }

    @Test
    void smallItemsAreCoalescedIntoOneGatheringWrite() {
        ChannelWriteSubscriber writer = writer(WriteOptions.defaults().withDemand(Demand.fixed(1000, 10)));
        writer.onSubscribe(upstream);
        executor.runAll();
        writer.onNext(item(1024)); // the probe
        executor.runAll();
        assertEquals(1 + 1000, upstream.requested);
        for (int i = 0; i < 1000; i++) {
            writer.onNext(item(1024));
        }
        executor.runAll();
        assertEquals(2, sink.writeCalls, "1000 queued items of 1 KiB went out in one write");
        assertEquals(1001, sink.items);
    }

    @Test
    void completesWithTheByteCountAfterClosingTheSink_W6() throws Exception {
        ChannelWriteSubscriber writer = writer(WriteOptions.defaults().withSync());
        writer.onSubscribe(upstream);
        executor.runAll();
        writer.onNext(item(7));
        writer.onComplete();
        assertFalse(writer.result().isDone());
        executor.runAll();
        assertEquals(7L, writer.result().get());
        assertEquals(1, sink.forces);
        assertEquals(1, sink.closes);
        assertFalse(upstream.cancelled, "a completed upstream is not cancelled");
    }

    @Test
    void upstreamErrorFailsTheStageWithThatErrorAndClosesOnce_W6() {
        ChannelWriteSubscriber writer = writer(WriteOptions.defaults());
        writer.onSubscribe(upstream);
        executor.runAll();
        IOException error = new IOException("producer died");
        writer.onNext(item(3));
        writer.onError(error);
        executor.runAll();
        ExecutionException failure =
                assertThrows(ExecutionException.class, () -> writer.result().get());
        assertSame(error, failure.getCause());
        assertEquals(1, sink.closes);
        assertFalse(upstream.cancelled, "§2.4: upstream is already terminated");
    }

    @Test
    void ioErrorCancelsUpstreamAndFailsWithTheOriginalException_W6() {
        sink.failOnWrite = new IOException("No space left on device");
        ChannelWriteSubscriber writer = writer(WriteOptions.defaults());
        writer.onSubscribe(upstream);
        executor.runAll();
        writer.onNext(item(3));
        executor.runAll();
        ExecutionException failure =
                assertThrows(ExecutionException.class, () -> writer.result().get());
        assertSame(sink.failOnWrite, failure.getCause());
        assertTrue(upstream.cancelled);
        assertEquals(1, sink.closes);
        writer.onNext(item(3)); // §2.8: a late item is dropped, nothing scheduled
        assertEquals(0, executor.runAll());
    }

    @Test
    void openFailureFailsTheStageAndCancelsUpstream() {
        sink.failOnOpen = new java.nio.file.NoSuchFileException("/missing/dir/file");
        ChannelWriteSubscriber writer = writer(WriteOptions.defaults());
        writer.onSubscribe(upstream);
        executor.runAll();
        ExecutionException failure =
                assertThrows(ExecutionException.class, () -> writer.result().get());
        assertSame(sink.failOnOpen, failure.getCause());
        assertTrue(upstream.cancelled);
        assertEquals(0, upstream.requestCalls, "nothing requested for a target that cannot open");
    }

    @Test
    void itemsBeyondDemandFailTheWriteCitingRule_1_1_W5() {
        ChannelWriteSubscriber writer = writer(WriteOptions.defaults());
        writer.onSubscribe(upstream);
        executor.runAll(); // requested: 1
        writer.onNext(item(5));
        writer.onNext(item(5)); // beyond demand
        for (int i = 0; i < 10_000; i++) {
            writer.onNext(item(5)); // never queued
        }
        executor.runAll();
        ExecutionException failure =
                assertThrows(ExecutionException.class, () -> writer.result().get());
        assertInstanceOf(IllegalStateException.class, failure.getCause());
        assertEquals(
                "§1.1: upstream sent item #2 but only 1 were requested; write to test aborted",
                failure.getCause().getMessage());
        assertTrue(upstream.cancelled);
        assertTrue(sink.items <= 1);
    }

    @Test
    void cancellingTheStageCancelsUpstreamAndClosesTheSinkOnTheDrain_W6() {
        ChannelWriteSubscriber writer = writer(WriteOptions.defaults());
        writer.onSubscribe(upstream);
        executor.runAll();
        assertTrue(writer.result().cancel(true));
        assertFalse(upstream.cancelled, "W1: cancel goes through the drain");
        executor.runAll();
        assertTrue(upstream.cancelled);
        assertEquals(1, sink.closes);
        assertThrows(CancellationException.class, () -> writer.result().join());
    }

    @Test
    void aCancelDuringTheCommitLosesAndTheStageReportsTheCommit_F2() throws Exception {
        ChannelWriteSubscriber writer = writer(WriteOptions.defaults().withSync());
        List<Boolean> cancelDuringCommit = new ArrayList<>();
        sink.onCommit = () -> cancelDuringCommit.add(writer.result().cancel(true));
        writeSevenBytesAndComplete(writer);
        assertEquals(List.of(false), cancelDuringCommit, "past its point of no return a write cannot be cancelled");
        assertEquals(7L, writer.result().get(), "the stage says what happened to the target: committed");
        assertEquals(0, sink.aborts);
        assertEquals(1, sink.closes);
    }

    @Test
    void aCancelDuringTheFinalForceWinsAndNothingIsCommitted_F2() {
        ChannelWriteSubscriber writer = writer(WriteOptions.defaults().withSync());
        sink.onForce = () -> assertTrue(writer.result().cancel(true));
        writeSevenBytesAndComplete(writer);
        assertEquals(0, sink.commits, "a cancelled write never reaches its commit");
        assertTrue(sink.aborts >= 1, "the sink is told to discard, whoever runs first");
        assertEquals(1, sink.closes);
        assertThrows(CancellationException.class, () -> writer.result().join());
    }

    @Test
    void aSyncWriteEndsOnTheFinisherSoASlowForceNeverHoldsTheDrainsExecutor_W9() throws Exception {
        ManualExecutor finisher = new ManualExecutor();
        ChannelWriteSubscriber writer =
                new ChannelWriteSubscriber(sink, WriteOptions.defaults().withSync(), executor, finisher, "test");
        writeSevenBytesAndComplete(writer);
        assertEquals(1, sink.writeCalls);
        assertEquals(0, sink.forces, "the force is not run on the drain's executor");
        assertEquals(1, finisher.queued());
        assertFalse(writer.result().isDone());
        finisher.runAll();
        assertEquals(1, sink.forces);
        assertEquals(1, sink.commits);
        assertEquals(1, sink.closes);
        assertEquals(7L, writer.result().get());
    }

    @Test
    void aWriteWithoutSyncEndsOnTheDrain_W9() throws Exception {
        ManualExecutor finisher = new ManualExecutor();
        ChannelWriteSubscriber writer =
                new ChannelWriteSubscriber(sink, WriteOptions.defaults(), executor, finisher, "test");
        writeSevenBytesAndComplete(writer);
        assertEquals(0, finisher.queued(), "nothing slow to move: no second hop");
        assertEquals(7L, writer.result().get());
        assertEquals(1, sink.closes);
    }

    @Test
    void aCancelWhileTheFinisherWaitsDiscardsAndClosesOnce_W9() {
        ManualExecutor finisher = new ManualExecutor();
        ChannelWriteSubscriber writer =
                new ChannelWriteSubscriber(sink, WriteOptions.defaults().withSync(), executor, finisher, "test");
        writeSevenBytesAndComplete(writer);
        assertTrue(writer.result().cancel(true));
        executor.runAll(); // the abort's signal: the write is already ending
        finisher.runAll();
        assertEquals(0, sink.commits);
        assertEquals(1, sink.closes);
        assertFalse(upstream.cancelled, "a completed upstream is not cancelled");
        assertThrows(CancellationException.class, () -> writer.result().join());
    }

    @Test
    void cancellingBeforeOnSubscribeCancelsTheLateSubscription() {
        ChannelWriteSubscriber writer = writer(WriteOptions.defaults());
        writer.result().cancel(true);
        executor.runAll();
        writer.onSubscribe(upstream);
        executor.runAll();
        assertTrue(upstream.cancelled);
        assertEquals(0, upstream.requestCalls);
    }

    @Test
    void aSecondSubscriptionIsCancelled_2_5() {
        ChannelWriteSubscriber writer = writer(WriteOptions.defaults());
        writer.onSubscribe(upstream);
        ManualUpstream second = new ManualUpstream();
        writer.onSubscribe(second);
        assertTrue(second.cancelled);
        assertFalse(upstream.cancelled);
    }

    @Test
    void nullSignalsThrowNullPointerException_2_13() {
        ChannelWriteSubscriber writer = writer(WriteOptions.defaults());
        assertThrows(NullPointerException.class, () -> writer.onSubscribe(null));
        writer.onSubscribe(upstream);
        assertThrows(NullPointerException.class, () -> writer.onNext(null));
        assertThrows(NullPointerException.class, () -> writer.onError(null));
    }

    @Test
    void anEmptyUpstreamOpensWritesNothingAndCompletesWithZero() {
        ChannelWriteSubscriber writer = writer(WriteOptions.defaults());
        writer.onSubscribe(upstream);
        writer.onComplete();
        executor.runAll();
        assertEquals(0L, writer.result().join());
        assertEquals(1, sink.opens);
        assertEquals(1, sink.closes);
    }

    @Test
    void theCallersBufferIsLeftUntouched() {
        ChannelWriteSubscriber writer = writer(WriteOptions.defaults());
        writer.onSubscribe(upstream);
        executor.runAll();
        ByteBuffer mine = ByteBuffer.wrap(new byte[] {1, 2, 3});
        writer.onNext(mine);
        writer.onComplete();
        executor.runAll();
        assertEquals(0, mine.position());
        assertEquals(3, mine.remaining());
    }

    @Test
    void aRejectingExecutorFailsTheWriteWithTheRejection() {
        ChannelWriteSubscriber writer = new ChannelWriteSubscriber(
                sink,
                WriteOptions.defaults(),
                task -> {
                    throw new RejectedExecutionException("shut down");
                },
                "test");
        writer.onSubscribe(upstream);
        ExecutionException failure =
                assertThrows(ExecutionException.class, () -> writer.result().get());
        assertInstanceOf(RejectedExecutionException.class, failure.getCause());
        assertTrue(failure.getCause().getMessage().contains("shut down"));
        assertTrue(upstream.cancelled);
        assertEquals(1, sink.closes);
    }

    @Test
    void aThrowingListenerFailsTheWriteWithItsException() {
        IllegalStateException boom = new IllegalStateException("listener bug");
        ChannelWriteSubscriber writer = new ChannelWriteSubscriber(
                sink,
                WriteOptions.defaults().withListener(snapshot -> {
                    throw boom;
                }),
                executor,
                "test");
        writer.onSubscribe(upstream);
        executor.runAll();
        writer.onNext(item(1));
        executor.runAll();
        ExecutionException failure =
                assertThrows(ExecutionException.class, () -> writer.result().get());
        assertSame(boom, failure.getCause());
        assertTrue(upstream.cancelled);
    }

    @Test
    void theListenerSeesEveryDemandDecision() {
        ChannelWriteSubscriber writer = writer(WriteOptions.defaults().withDemand(Demand.fixed(4, 1)));
        writer.onSubscribe(upstream);
        executor.runAll();
        writer.onNext(item(100));
        executor.runAll();
        WriteSnapshot last = snapshots.get(snapshots.size() - 1);
        assertEquals(1, last.writtenItems());
        assertEquals(100, last.writtenBytes());
        assertEquals(5, last.requestedItems());
        assertEquals(4, last.outstandingItems());
        assertEquals(5, last.windowItems());
        assertEquals("fixed amount=4 shift=1", last.strategy());
    }
}
