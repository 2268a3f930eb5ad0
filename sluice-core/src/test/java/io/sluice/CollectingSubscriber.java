package io.sluice;

import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Collects the chunks of a byte publisher, with the thread that delivered each, and its terminal
 * signal; requests {@code initialRequest} on subscribe (0: the test requests through
 * {@link #subscription} by hand), or one chunk at a time ({@link #oneAtATime()}).
 *
 * <p><b>Threading:</b> the signals come from the publisher's threads, one at a time (§1.3); the
 * test thread reads the fields at any time, and {@link #awaitChunks} and {@link #awaitBytes} wait
 * on this object's monitor, which {@link #onNext} notifies.
 */
final class CollectingSubscriber implements Subscriber<ByteBuffer> {

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

    private final long initialRequest; // immutable: any thread
    private final boolean oneAtATime; // immutable: any thread
    private volatile long receivedBytes; // written by onNext, read by the waiting test

    /**
     * A subscriber that requests {@code initialRequest} on subscribe.
     *
     * @param initialRequest the first request, or 0 for none
     */
    public CollectingSubscriber(long initialRequest) {
        this(initialRequest, false);
    }

    private CollectingSubscriber(long initialRequest, boolean oneAtATime) {
        this.initialRequest = initialRequest;
        this.oneAtATime = oneAtATime;
    }

    /**
     * A subscriber that requests everything on subscribe.
     *
     * @return the subscriber
     */
    public static CollectingSubscriber all() {
        return new CollectingSubscriber(Long.MAX_VALUE);
    }

    /**
     * A subscriber that requests one chunk on subscribe and one more after each chunk.
     *
     * @return the subscriber
     */
    public static CollectingSubscriber oneAtATime() {
        return new CollectingSubscriber(1, true);
    }

    @Override
    public void onSubscribe(Subscription subscription) {
        this.subscription = subscription;
        subscribed.countDown();
        if (initialRequest > 0) {
            subscription.request(initialRequest);
        }
    }

    @Override
    public void onNext(ByteBuffer chunk) {
        threads.add(Thread.currentThread().getName());
        chunks.add(chunk);
        synchronized (this) {
            receivedBytes += chunk.remaining();
            notifyAll();
        }
        if (oneAtATime) {
            subscription.request(1);
        }
    }

    @Override
    public void onError(Throwable error) {
        this.error = error;
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
    public boolean awaitChunks(int count, long timeout, TimeUnit unit) throws InterruptedException {
        return awaitUntil(() -> chunks.size() >= count, unit.toNanos(timeout));
    }

    /**
     * Waits until {@code total} bytes have arrived, counted as each chunk's remaining bytes on
     * arrival.
     *
     * @param total the bytes to wait for
     * @param timeout the longest wait
     * @param unit the unit of {@code timeout}
     * @return true once they have arrived, false when the time ran out first
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public boolean awaitBytes(long total, long timeout, TimeUnit unit) throws InterruptedException {
        return awaitUntil(() -> receivedBytes >= total, unit.toNanos(timeout));
    }

    /**
     * The bytes received so far.
     *
     * @return the sum of the chunks' remaining bytes on arrival
     */
    public long receivedBytes() {
        return receivedBytes;
    }

    private synchronized boolean awaitUntil(BooleanSupplier condition, long timeoutNanos) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutNanos;
        while (!condition.getAsBoolean()) {
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
        ByteBuffer all = ByteBuffer.allocate(
                chunks.stream().mapToInt(ByteBuffer::remaining).sum());
        chunks.forEach(chunk -> all.put(chunk.duplicate()));
        return all.array();
    }
}
