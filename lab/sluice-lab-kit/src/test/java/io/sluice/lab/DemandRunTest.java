package io.sluice.lab;

import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link DemandRun} with a one-item-at-a-time write standing in for sluice's writer. */
class DemandRunTest {

    private static final Schedule FAST = Schedule.constant(1e12);

    @Test
    void finiteRunWaitsForEveryStreamAndSumsTheirQueues() throws Exception {
        ThrottledSink sink = new ThrottledSink(FAST, PacingClock.system(), 64 * 1024);
        AtomicInteger stream0Passes = new AtomicInteger();
        DemandRun.Result run = DemandRun.run(
                "finite",
                List.of(sink.channel(), sink.channel(), sink.channel()),
                stream -> new ScheduledPublisher(
                        10 * 1024, 1024, FAST, ScheduledPublisher.Emission.SYNC, PacingClock.system(), null),
                DemandRunTest::oneByOne,
                (queued, window, outstanding, written, calls) -> stream0Passes.incrementAndGet(),
                0);

        assertEquals(3 * 10 * 1024, run.writtenBytes());
        assertEquals(10, stream0Passes.get(), "stream 0's passes only");
        assertEquals(3 * 1024, run.peakQueuedBytes(), "the sum of every stream's latest report (one item each)");
        assertFalse(run.outOfMemory());
    }

    @Test
    void endlessRunIsCancelledAtItsDurationAndClosesItsChannel() throws Exception {
        ThrottledChannel channel = new ThrottledChannel(Schedule.constant(100 * 1024 * 1024), PacingClock.system());
        ScheduledPublisher endless = new ScheduledPublisher(
                Long.MAX_VALUE, 1024, FAST, ScheduledPublisher.Emission.ASYNC, PacingClock.system(), null);
        DemandRun.Result run = DemandRun.run(
                "endless",
                List.of(channel),
                stream -> endless,
                DemandRunTest::oneByOne,
                (queued, window, outstanding, written, calls) -> {},
                300_000_000);

        assertTrue(run.elapsedNanos() >= 300_000_000, "ran for its duration: " + run);
        assertTrue(run.writtenBytes() > 0 && run.writtenBytes() == channel.writtenBytes(), run.toString());
        assertFalse(channel.isOpen(), "the cancel closed the channel");
    }

    @Test
    void anEndlessWriteThatCompletesFailsTheRun() {
        ThrottledChannel channel = new ThrottledChannel(FAST, PacingClock.system());
        ScheduledPublisher finite = new ScheduledPublisher(
                3 * 1024, 1024, FAST, ScheduledPublisher.Emission.SYNC, PacingClock.system(), null);
        IllegalStateException exception = assertThrows(
                IllegalStateException.class,
                () -> DemandRun.run(
                        "short",
                        List.of(channel),
                        stream -> finite,
                        DemandRunTest::oneByOne,
                        (queued, window, outstanding, written, calls) -> {},
                        5_000_000_000L));
        assertTrue(
                exception.getMessage().contains("the endless write completed with 3072 bytes"), exception.getMessage());
    }

    /**
     * Requests one item at a time, writes it and reports a pass with the item as queued; a cancel of
     * the returned stage cancels the subscription and closes the channel.
     */
    private static CompletionStage<Long> oneByOne(
            WritableByteChannel channel, Publisher<ByteBuffer> body, DemandRun.PassListener listener) {
        CompletableFuture<Long> done = new CompletableFuture<>();
        AtomicLong written = new AtomicLong();
        body.subscribe(new Subscriber<>() {
            private Subscription subscription;

            @Override
            public void onSubscribe(Subscription subscription) {
                this.subscription = subscription;
                done.whenComplete((bytes, error) -> {
                    subscription.cancel();
                    try {
                        channel.close();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
                subscription.request(1);
            }

            @Override
            public void onNext(ByteBuffer item) {
                listener.onPass(item.remaining(), 1, 0, written.get(), 0);
                try {
                    while (item.hasRemaining()) {
                        written.addAndGet(channel.write(item));
                    }
                } catch (IOException e) {
                    done.completeExceptionally(e);
                    return;
                }
                subscription.request(1);
            }

            @Override
            public void onError(Throwable error) {
                done.completeExceptionally(error);
            }

            @Override
            public void onComplete() {
                done.complete(written.get());
            }
        });
        return done;
    }
}
