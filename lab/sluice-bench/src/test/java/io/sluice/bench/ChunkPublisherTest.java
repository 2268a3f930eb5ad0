package io.sluice.bench;

import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The write source honours demand (§1.1), is safe to re-enter (§3.3) and rejects request(0) (§3.9). */
class ChunkPublisherTest {

    private static final class Recorder implements Subscriber<ByteBuffer> {
        final List<String> events = new ArrayList<>();
        final List<ByteBuffer> items = new ArrayList<>();
        Subscription subscription;
        int depth;
        int maxDepth;
        long requestInsideOnNext;

        @Override
        public void onSubscribe(Subscription subscription) {
            this.subscription = subscription;
        }

        @Override
        public void onNext(ByteBuffer item) {
            depth++;
            maxDepth = Math.max(maxDepth, depth);
            items.add(item);
            if (requestInsideOnNext > 0) {
                subscription.request(requestInsideOnNext);
            }
            depth--;
        }

        @Override
        public void onError(Throwable error) {
            events.add("error " + error.getMessage());
        }

        @Override
        public void onComplete() {
            events.add("complete");
        }
    }

    @Test
    void emitsNoMoreThanRequested_1_1() {
        Recorder recorder = new Recorder();
        ChunkPublisher.of(10).subscribe(recorder);
        assertEquals(0, recorder.items.size(), "nothing before request");
        recorder.subscription.request(3);
        assertEquals(3, recorder.items.size());
        recorder.subscription.request(7);
        assertEquals(10, recorder.items.size());
        assertEquals(List.of("complete"), recorder.events);
        for (int i = 0; i < 10; i++) {
            assertEquals(Payload.freshChunk(i), recorder.items.get(i), "chunk " + i);
            assertTrue(recorder.items.get(i) != recorder.items.get(0) || i == 0, "a fresh buffer each time");
        }
    }

    @Test
    void requestFromOnNextDoesNotRecurse_3_3() {
        Recorder recorder = new Recorder();
        recorder.requestInsideOnNext = 1;
        ChunkPublisher.of(1000).subscribe(recorder);
        recorder.subscription.request(1);
        assertEquals(1000, recorder.items.size());
        assertEquals(1, recorder.maxDepth, "onNext must not be re-entered from request");
        assertEquals(List.of("complete"), recorder.events);
    }

    @Test
    void nonPositiveRequestSignalsIllegalArgument_3_9() {
        Recorder recorder = new Recorder();
        ChunkPublisher.of(5).subscribe(recorder);
        recorder.subscription.request(0);
        assertEquals(List.of("error §3.9: request must be positive, was 0"), recorder.events);
        recorder.subscription.request(5);
        assertEquals(0, recorder.items.size(), "nothing after the error");
    }

    @Test
    void cancelStopsEmission_3_7() {
        Recorder recorder = new Recorder();
        ChunkPublisher.of(5).subscribe(recorder);
        recorder.subscription.request(2);
        recorder.subscription.cancel();
        recorder.subscription.request(3);
        assertEquals(2, recorder.items.size());
        assertEquals(List.of(), recorder.events);
    }
}
