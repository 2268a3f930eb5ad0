package io.sluice.spring;

import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.MediaType;
import org.springframework.http.codec.multipart.FilePartEvent;
import org.springframework.http.codec.multipart.PartEvent;
import reactor.core.publisher.Flux;
import reactor.util.context.Context;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The cursor under the store: parts end at their last event, and every event is released once. */
class PartCursorTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void aPartsContentsStopAtItsLastEventAndTheNextPartWaitsForTheNextConsumer() {
        TrackedBuffers first = new TrackedBuffers(bytes("first part"), 3, null);
        TrackedBuffers second = new TrackedBuffers(bytes("second"), 4, null);
        List<PartEvent> events = new ArrayList<>(file("a", first.flux()));
        events.addAll(file("b", second.flux()));
        PartCursor cursor = PartCursor.over(Flux.fromIterable(events), Context.empty());

        PartEvent head = cursor.nextHead().block(WAIT).event();
        assertSame(events.get(0), head);
        Recorder contents = new Recorder(Long.MAX_VALUE);
        cursor.partContents().subscribe(contents);

        assertEquals("first part", contents.text());
        assertTrue(contents.completed, "the part ends at its last event, though more was requested");
        PartEvent nextHead = cursor.nextHead().block(WAIT).event();
        assertEquals("b", ((FilePartEvent) nextHead).name());
        cursor.skipPart().block(WAIT);
        assertFalse(cursor.ended());
        assertEquals(null, cursor.nextHead().block(WAIT), "no part after the last");
        assertTrue(cursor.ended());
        contents.releaseAll();
        assertEquals(Collections.nCopies(first.createdCount(), 1), first.releaseCounts());
        assertEquals(Collections.nCopies(second.createdCount(), 1), second.releaseCounts());
    }

    @Test
    void aRequestThatIsNotPositiveFailsThePartWithRule3_9() {
        PartCursor cursor = PartCursor.over(
                Flux.fromIterable(file("a", new TrackedBuffers(bytes("x"), 1, null).flux())), Context.empty());
        cursor.nextHead().block(WAIT);
        Recorder contents = new Recorder(0);
        cursor.partContents().subscribe(contents);

        assertInstanceOf(IllegalArgumentException.class, contents.error);
        assertTrue(contents.error.getMessage().contains("§3.9"), contents.error.getMessage());
        cursor.cancel();
    }

    @Test
    void aPartsContentsRefuseASecondSubscriber() {
        PartCursor cursor = PartCursor.over(
                Flux.fromIterable(file("a", new TrackedBuffers(bytes("x"), 1, null).flux())), Context.empty());
        cursor.nextHead().block(WAIT);
        Publisher<DataBuffer> contents = cursor.partContents();
        Recorder first = new Recorder(1);
        contents.subscribe(first);
        Recorder second = new Recorder(1);
        contents.subscribe(second);

        assertInstanceOf(IllegalStateException.class, second.error);
        assertEquals("x", first.text());
        first.releaseAll();
        cursor.cancel();
    }

    @Test
    void cancelReleasesTheEventsQueuedAndThoseArrivingAfterward() {
        TrackedBuffers buffers = new TrackedBuffers(bytes("0123456789"), 1, null);
        List<PartEvent> events = file("a", buffers.flux());
        LateSource source = new LateSource(events, 4);
        PartCursor cursor = PartCursor.over(source, Context.empty());
        assertNotNull(cursor.nextHead().block(WAIT)); // the head is queued, not taken

        cursor.cancel();

        assertTrue(source.cancelled, "the upstream is cancelled");
        for (int i = source.sent; i < events.size(); i++) {
            DataBufferUtils.release(events.get(i).content()); // never sent: the test's to release
        }
        assertEquals(Collections.nCopies(buffers.createdCount(), 1), buffers.releaseCounts());
    }

    @Test
    void aPartSubscriberThatThrowsEndsTheCursorReleasingEveryEventItHolds() {
        TrackedBuffers first = new TrackedBuffers(bytes("0123456789"), 1, null);
        TrackedBuffers second = new TrackedBuffers(bytes("abcdef"), 1, null);
        List<PartEvent> events = new ArrayList<>(file("a", first.flux()));
        events.addAll(file("b", second.flux()));
        LateSource source = new LateSource(events, events.size());
        PartCursor cursor = PartCursor.over(source, Context.empty());
        cursor.nextHead().block(WAIT);
        Recorder throwing = new Recorder(Long.MAX_VALUE) {
            @Override
            public void onNext(DataBuffer buffer) {
                super.onNext(buffer);
                throw new IllegalStateException("a subscriber breaking §2.13");
            }
        };

        cursor.partContents().subscribe(throwing); // the throw reaches the cursor's drain, not here

        assertTrue(source.cancelled, "the upstream is cancelled");
        throwing.releaseAll(); // the one buffer it received is its own (M1)
        for (int i = source.sent; i < events.size(); i++) {
            DataBufferUtils.release(events.get(i).content()); // never sent: the test's to release
        }
        assertEquals(Collections.nCopies(first.createdCount(), 1), first.releaseCounts());
        assertEquals(Collections.nCopies(second.createdCount(), 1), second.releaseCounts());
        IllegalStateException next = assertThrows(
                IllegalStateException.class, () -> cursor.nextHead().block(WAIT));
        assertTrue(next.getMessage().contains("ended by a failure"), next.getMessage());
    }

    @Test
    void theUpstreamSeesTheContextGiven() {
        List<Object> seen = new ArrayList<>();
        Flux<PartEvent> parts = Flux.deferContextual(context -> {
            seen.add(context.get("key"));
            return Flux.empty();
        });

        PartCursor cursor = PartCursor.over(parts, Context.of("key", "value"));

        assertEquals(null, cursor.nextHead().block(WAIT));
        assertEquals(List.of("value"), seen);
    }

    private static List<PartEvent> file(String name, Flux<DataBuffer> content) {
        return FilePartEvent.create(name, name + ".bin", MediaType.APPLICATION_OCTET_STREAM, content)
                .cast(PartEvent.class)
                .collectList()
                .block(WAIT);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Sends up to {@code eager} events as requested, then one more when cancelled (§2.8), then nothing. */
    private static final class LateSource implements Publisher<PartEvent> {
        private final List<PartEvent> events;
        private final int eager;
        int sent;
        boolean cancelled;

        LateSource(List<PartEvent> events, int eager) {
            this.events = events;
            this.eager = eager;
        }

        @Override
        public void subscribe(Subscriber<? super PartEvent> subscriber) {
            subscriber.onSubscribe(new Subscription() {
                @Override
                public void request(long n) {
                    for (long i = 0; i < n && sent < eager; i++) {
                        subscriber.onNext(events.get(sent++));
                    }
                }

                @Override
                public void cancel() {
                    if (!cancelled) {
                        cancelled = true;
                        subscriber.onNext(events.get(sent++));
                    }
                }
            });
        }
    }

    /** Requests {@code initial} at subscribe and records what arrives, keeping the buffers until released. */
    private static class Recorder implements Subscriber<DataBuffer> {
        private final long initial;
        private final List<DataBuffer> received = new ArrayList<>();
        boolean completed;
        Throwable error;

        Recorder(long initial) {
            this.initial = initial;
        }

        @Override
        public void onSubscribe(Subscription subscription) {
            subscription.request(initial);
        }

        @Override
        public void onNext(DataBuffer buffer) {
            received.add(buffer);
        }

        @Override
        public void onError(Throwable failure) {
            error = failure;
        }

        @Override
        public void onComplete() {
            completed = true;
        }

        String text() {
            StringBuilder text = new StringBuilder();
            for (DataBuffer buffer : received) {
                text.append(buffer.toString(buffer.readPosition(), buffer.readableByteCount(), StandardCharsets.UTF_8));
            }
            return text.toString();
        }

        void releaseAll() {
            received.forEach(DataBufferUtils::release);
        }
    }
}
