package io.sluice.testing;

import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Collects chunks; requests {@code initialRequest} on subscribe (0: the test requests by hand). */
public final class CollectingSubscriber implements Subscriber<ByteBuffer> {

    public final List<ByteBuffer> chunks = new CopyOnWriteArrayList<>();
    public final List<String> threads = new CopyOnWriteArrayList<>();
    public final CountDownLatch terminated = new CountDownLatch(1);
    public final CountDownLatch subscribed = new CountDownLatch(1);
    public final CountDownLatch firstChunk = new CountDownLatch(1);
    public volatile Subscription subscription;
    public volatile Throwable error;
    public volatile boolean completed;
    private final long initialRequest;

    public CollectingSubscriber(long initialRequest) {
        this.initialRequest = initialRequest;
    }

    /** Requests everything. */
    public static CollectingSubscriber all() {
        return new CollectingSubscriber(Long.MAX_VALUE);
    }

    @Override
    public void onSubscribe(Subscription s) {
        subscription = s;
        subscribed.countDown();
        if (initialRequest > 0) {
            s.request(initialRequest);
        }
    }

    @Override
    public void onNext(ByteBuffer chunk) {
        threads.add(Thread.currentThread().getName());
        chunks.add(chunk);
        firstChunk.countDown();
    }

    @Override
    public void onError(Throwable t) {
        error = t;
        terminated.countDown();
    }

    @Override
    public void onComplete() {
        completed = true;
        terminated.countDown();
    }

    /** Waits for a terminal signal (fails after 30 s) and returns this. */
    public CollectingSubscriber await() {
        try {
            if (!terminated.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("no terminal signal in 30 s; got " + chunks.size() + " chunks");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
        return this;
    }

    public byte[] bytes() {
        return Bytes.concat(chunks);
    }
}
