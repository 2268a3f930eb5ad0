package io.sluice.lab.s3;

import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BurstyPublisherTest {

    /** Requests one item at a time, as sluice's upload does, and records what arrives. */
    private static final class OneAtATime implements Subscriber<ByteBuffer> {
        final List<ByteBuffer> items = new CopyOnWriteArrayList<>();
        final List<Long> arrivalNanos = new CopyOnWriteArrayList<>();
        final CompletableFuture<Void> done = new CompletableFuture<>();
        private Subscription upstream;

        @Override
        public void onSubscribe(Subscription subscription) {
            upstream = subscription;
            subscription.request(1);
        }

        @Override
        public void onNext(ByteBuffer item) {
            items.add(item);
            arrivalNanos.add(System.nanoTime());
            upstream.request(1);
        }

        @Override
        public void onError(Throwable error) {
            done.completeExceptionally(error);
        }

        @Override
        public void onComplete() {
            done.complete(null);
        }
    }

    @Test
    void emitsExactlyTheTotalInItemsOfTheKnownPatternThenCompletes() throws Exception {
        long total = 2L * BurstyPublisher.ITEM_BYTES + 1000;
        OneAtATime subscriber = new OneAtATime();

        new BurstyPublisher(total).subscribe(subscriber);
        subscriber.done.get(10, TimeUnit.SECONDS);

        assertEquals(
                List.of(BurstyPublisher.ITEM_BYTES, BurstyPublisher.ITEM_BYTES, 1000),
                subscriber.items.stream().map(ByteBuffer::remaining).toList());
        ByteBuffer last = subscriber.items.get(2);
        assertEquals(BurstyPublisher.byteAt(2L * BurstyPublisher.ITEM_BYTES + 999), last.get(999));
        assertEquals(BurstyPublisher.byteAt(17), subscriber.items.get(0).get(17));

        java.security.MessageDigest md5 = java.security.MessageDigest.getInstance("MD5");
        subscriber.items.forEach(item -> md5.update(item.duplicate()));
        assertEquals(
                java.util.HexFormat.of().formatHex(md5.digest()),
                BurstyPublisher.md5(total),
                "the ETag a single PUT of the source is checked against");
    }

    @Test
    void pausesBetweenBurstsEvenWhenMoreIsRequested() throws Exception {
        long total = (BurstyPublisher.BURST_ITEMS + 1L) * BurstyPublisher.ITEM_BYTES;
        OneAtATime subscriber = new OneAtATime();

        new BurstyPublisher(total).subscribe(subscriber);
        subscriber.done.get(10, TimeUnit.SECONDS);

        long gapNanos = subscriber.arrivalNanos.get(BurstyPublisher.BURST_ITEMS)
                - subscriber.arrivalNanos.get(BurstyPublisher.BURST_ITEMS - 1);
        assertTrue(gapNanos >= TimeUnit.MILLISECONDS.toNanos(BurstyPublisher.PAUSE_MILLIS), gapNanos + " ns");
    }

    @Test
    void emitsNothingBeyondDemand() throws Exception {
        CompletableFuture<Subscription> subscribed = new CompletableFuture<>();
        List<ByteBuffer> items = new CopyOnWriteArrayList<>();
        new BurstyPublisher(4L * BurstyPublisher.ITEM_BYTES).subscribe(new Subscriber<>() {
            @Override
            public void onSubscribe(Subscription subscription) {
                subscribed.complete(subscription);
            }

            @Override
            public void onNext(ByteBuffer item) {
                items.add(item);
            }

            @Override
            public void onError(Throwable error) {}

            @Override
            public void onComplete() {}
        });
        Subscription subscription = subscribed.get(10, TimeUnit.SECONDS);
        subscription.request(2);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (items.size() < 2 && System.nanoTime() < deadline) {
            Thread.sleep(1); // the emitter's own thread delivers: wait for it
        }
        Thread.sleep(50); // room for an item beyond demand to arrive, if one would

        assertEquals(2, items.size());
        subscription.cancel();
    }
}
