package io.sluice.testkit;

import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Collects the chunks of a byte publisher, with the thread that delivered each, and its terminal
 * signal; requests {@code initialRequest} on subscribe (0: the test requests through
 * {@link #subscription} by hand).
 *
 * <p><b>Threading:</b> the signals come from the publisher's threads, one at a time (§1.3); the
 * test thread reads the fields at any time, and {@link #awaitChunks} waits on this object's
 * monitor, which {@link #onNext} notifies.
 */
public final class CollectingSubscriber implements Subscriber<ByteBuffer> {

    /** The chunks in the order they arrived: written by onNext, read by the test. */
    public final List<ByteBuffer> chunks = new CopyOnWriteArrayList<>();
    /** The name of the thread that delivered each chunk: written by onNext, read by the test. */
    public final List<String> threads = new CopyOnWriteArrayList<>();
    /** Counted down by onError or onComplete. */
    public final CountDownLatch terminated = new CountDownLatch(1);
    /** Counted down by onSubscribe. */
    public final CountDownLatch subscribed = new CountDownLatch(1);
    /** The subscription: written by onSubscribe, used by the test to request and cancel. */
    public volatile Subscription subscription;
    /** The error of onError, null before it: written by onError, read by the test. */
    public volatile Throwable error;
    /** Whether onComplete came: written by onComplete, read by the test. */
    public volatile boolean completed;
    private final long initialRequest;                     // immutable: any thread

    /**
     * A subscriber that requests {@code initialRequest} on subscribe.
     *
     * @param initialRequest the first request, or 0 for none
     */
    public CollectingSubscriber(long initialRequest) {
        this.initialRequest = initialRequest;
    }

    /**
     * A subscriber that requests everything on subscribe.
     *
     * @return the subscriber
     */
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
        synchronized (this) {
            notifyAll();
        }
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

    /**
     * Waits until {@code count} chunks have arrived.
     *
     * @param count the chunks to wait for
     * @param timeout the longest wait
     * @param unit the unit of {@code timeout}
     * @return true once they have arrived, false when the time ran out first
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public synchronized boolean awaitChunks(int count, long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (chunks.size() < count) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }

    /**
     * Waits for a terminal signal, failing the test after 30 s.
     *
     * @return this
     */
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

    /**
     * The bytes of every chunk so far, in order; the chunks' positions are left as they are.
     *
     * @return the concatenation
     */
    public byte[] bytes() {
        ByteBuffer all = ByteBuffer.allocate(chunks.stream().mapToInt(ByteBuffer::remaining).sum());
        chunks.forEach(chunk -> all.put(chunk.duplicate()));
        return all.array();
    }
}
