package io.sluice.internal.write;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Single-threaded, scripted tests of the flattener's invariants F1-F3. */
class BufferFlattenerTest {

    @Test
    void requestsOneListAtATimeAndOnlyWhenBuffersRunOut_F1() {
        BufferFlattener flattener = new BufferFlattener();
        ScriptedUpstream upstream = new ScriptedUpstream();
        RecordingSubscriber downstream = new RecordingSubscriber();
        flattener.subscribe(downstream);
        flattener.onSubscribe(upstream);
        assertEquals(0, upstream.requested, "nothing is requested before the downstream asks");

        downstream.subscription.request(2);
        assertEquals(1, upstream.requested);
        flattener.onNext(List.of(text("a"), text("b"), text("c")));
        assertEquals(List.of("a", "b"), downstream.items);
        assertEquals(1, upstream.requested, "a buffer is left: no new list is requested");

        downstream.subscription.request(5);
        assertEquals(List.of("a", "b", "c"), downstream.items);
        assertEquals(2, upstream.requested, "buffers ran out with demand left: one more list");
    }

    @Test
    void skipsEmptyBuffersAndCompletesAfterTheLastBuffer_F3() {
        BufferFlattener flattener = new BufferFlattener();
        ScriptedUpstream upstream = new ScriptedUpstream();
        RecordingSubscriber downstream = new RecordingSubscriber();
        flattener.onSubscribe(upstream);
        flattener.subscribe(downstream);
        downstream.subscription.request(1);

        flattener.onNext(List.of(ByteBuffer.allocate(0), text("x"), text("y")));
        flattener.onComplete();
        assertEquals(List.of("x"), downstream.items);
        assertEquals(0, downstream.completions, "y is still owed: no onComplete yet (§1.7)");

        downstream.subscription.request(1);
        assertEquals(List.of("x", "y"), downstream.items);
        assertEquals(1, downstream.completions);
    }

    @Test
    void aNonPositiveRequestSignalsIllegalArgumentAndCancelsUpstream_3_9() {
        BufferFlattener flattener = new BufferFlattener();
        ScriptedUpstream upstream = new ScriptedUpstream();
        RecordingSubscriber downstream = new RecordingSubscriber();
        flattener.subscribe(downstream);
        flattener.onSubscribe(upstream);

        downstream.subscription.request(0);

        assertInstanceOf(IllegalArgumentException.class, downstream.error);
        assertTrue(downstream.error.getMessage().contains("§3.9"), downstream.error.getMessage());
        assertTrue(upstream.cancelled);
    }

    @Test
    void aCancelBeforeTheUpstreamArrivesCancelsItOnArrival() {
        BufferFlattener flattener = new BufferFlattener();
        RecordingSubscriber downstream = new RecordingSubscriber();
        flattener.subscribe(downstream);
        downstream.subscription.cancel();

        ScriptedUpstream upstream = new ScriptedUpstream();
        flattener.onSubscribe(upstream);

        assertTrue(upstream.cancelled);
        assertEquals(0, upstream.requested);
    }

    @Test
    void anUpstreamErrorReachesTheDownstream() {
        BufferFlattener flattener = new BufferFlattener();
        RecordingSubscriber downstream = new RecordingSubscriber();
        flattener.subscribe(downstream);
        flattener.onSubscribe(new ScriptedUpstream());
        IllegalStateException failure = new IllegalStateException("connection reset");

        flattener.onError(failure);

        assertEquals(failure, downstream.error);
    }

    @Test
    void aSecondSubscriberIsRejected_1_11() {
        BufferFlattener flattener = new BufferFlattener();
        flattener.subscribe(new RecordingSubscriber());
        RecordingSubscriber second = new RecordingSubscriber();

        flattener.subscribe(second);

        assertInstanceOf(IllegalStateException.class, second.error);
    }

    private static ByteBuffer text(String value) {
        return ByteBuffer.wrap(value.getBytes(StandardCharsets.US_ASCII));
    }

    private static final class ScriptedUpstream implements Flow.Subscription {
        long requested;
        boolean cancelled;

        @Override
        public void request(long n) {
            requested += n;
        }

        @Override
        public void cancel() {
            cancelled = true;
        }
    }

    private static final class RecordingSubscriber implements Flow.Subscriber<ByteBuffer> {
        final List<String> items = new ArrayList<>();
        Flow.Subscription subscription;
        Throwable error;
        int completions;

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            this.subscription = subscription;
        }

        @Override
        public void onNext(ByteBuffer item) {
            items.add(StandardCharsets.US_ASCII.decode(item).toString());
        }

        @Override
        public void onError(Throwable throwable) {
            error = throwable;
        }

        @Override
        public void onComplete() {
            completions++;
        }
    }
}
