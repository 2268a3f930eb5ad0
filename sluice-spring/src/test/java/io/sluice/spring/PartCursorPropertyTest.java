package io.sluice.spring;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.codec.multipart.PartEvent;
import reactor.core.publisher.Flux;
import reactor.util.context.Context;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Any form (parts of any number of events, empty ones included), each part written or skipped,
 * written parts read in any request batch, the store ending after any number of events: each part
 * written arrives whole and in order, ends at its last event and no later, and every event the
 * upstream sent is released exactly once, by the part's reader or by the cursor.
 */
class PartCursorPropertyTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Property(tries = 300)
    void everyPartArrivesWholeAndEveryEventIsReleasedOnceWhereverTheStoreEnds(
            @ForAll @Size(max = 5) List<@IntRange(min = 0, max = 6) Integer> contentEvents,
            @ForAll @IntRange(min = 1, max = 8) int requestBatch,
            @ForAll @IntRange(min = 0, max = 40) int endAfter,
            @ForAll long seed) {
        List<TrackedBuffers> parts = new ArrayList<>();
        List<int[]> eventOf = new ArrayList<>(); // event index -> {part, index in part}
        for (int part = 0; part < contentEvents.size(); part++) {
            int events = contentEvents.get(part) + 1; // the content events and the last
            byte[] bytes = new byte[events];
            for (int i = 0; i < events; i++) {
                bytes[i] = (byte) (part * 16 + i);
            }
            parts.add(new TrackedBuffers(bytes, 1, null));
            for (int i = 0; i < events; i++) {
                eventOf.add(new int[] {part, i});
            }
        }
        List<PartEvent> sent = Collections.synchronizedList(new ArrayList<>());
        Flux<PartEvent> form = Flux.fromIterable(eventOf).map(at -> {
            PartEvent event = new Event(parts.get(at[0]).item(at[1]), at[1] == contentEvents.get(at[0]));
            sent.add(event);
            return event;
        });
        PartCursor cursor = PartCursor.over(form, Context.empty());
        Random choices = new Random(seed);

        int handled = 0;
        int part = 0;
        while (handled < endAfter) {
            PartCursor.Head head = cursor.nextHead().block(WAIT);
            if (head == null) {
                assertEquals(contentEvents.size(), part, "the form ends after its last part");
                assertTrue(cursor.ended());
                break;
            }
            assertSame(sent.get(firstEvent(contentEvents, part)), head.event(), "a part's head is its first event");
            int events = contentEvents.get(part) + 1;
            if (choices.nextBoolean()) {
                cursor.skipPart().block(WAIT);
                handled += events;
            } else {
                Reader reader = new Reader(requestBatch, endAfter - handled);
                cursor.partContents().subscribe(reader);
                handled += reader.received.size();
                if (reader.received.size() < events) {
                    assertFalse(reader.completed, "cancelled before its last event");
                    break;
                }
                assertTrue(reader.completed, "a part ends at its last event");
                assertEquals(contentBytes(part, events), reader.received, "the part whole, in order");
            }
            part++;
        }
        cursor.cancel(); // as the store does when it ends

        for (TrackedBuffers buffers : parts) {
            assertEquals(List.of(), buffers.problems());
            assertEquals(Collections.nCopies(buffers.createdCount(), 1), buffers.releaseCounts());
        }
    }

    private static int firstEvent(List<Integer> contentEvents, int part) {
        int index = 0;
        for (int p = 0; p < part; p++) {
            index += contentEvents.get(p) + 1;
        }
        return index;
    }

    private static List<Integer> contentBytes(int part, int events) {
        List<Integer> bytes = new ArrayList<>();
        for (int i = 0; i < events; i++) {
            bytes.add(part * 16 + i);
        }
        return bytes;
    }

    /** An event of a file part. */
    private record Event(DataBuffer content, boolean isLast) implements PartEvent {
        @Override
        public HttpHeaders headers() {
            return HttpHeaders.EMPTY;
        }
    }

    /**
     * Requests {@code batch} at a time, each time the last batch has arrived; takes at most
     * {@code budget} buffers, then cancels. Releases each buffer on arrival, keeping its byte.
     */
    private static final class Reader implements Subscriber<DataBuffer> {
        private final int batch;
        private final int budget;
        private final List<Integer> received = new ArrayList<>();
        private Subscription subscription;
        private boolean completed;

        Reader(int batch, int budget) {
            this.batch = batch;
            this.budget = budget;
        }

        @Override
        public void onSubscribe(Subscription subscription) {
            this.subscription = subscription;
            if (budget == 0) {
                subscription.cancel();
            } else {
                subscription.request(batch);
            }
        }

        @Override
        public void onNext(DataBuffer buffer) {
            received.add((int) buffer.getByte(buffer.readPosition()));
            DataBufferUtils.release(buffer);
            if (received.size() == budget) {
                subscription.cancel();
            } else if (received.size() % batch == 0) {
                subscription.request(batch);
            }
        }

        @Override
        public void onError(Throwable failure) {
            throw new AssertionError("no part fails here", failure);
        }

        @Override
        public void onComplete() {
            completed = true;
        }
    }
}
