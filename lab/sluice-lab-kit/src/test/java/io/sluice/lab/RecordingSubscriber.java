package io.sluice.lab;

import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

/** Records the items, their arrival times and emitting threads, and how the stream ended. */
final class RecordingSubscriber implements Subscriber<ByteBuffer> {
    final List<ByteBuffer> items = new CopyOnWriteArrayList<>();
    final List<Long> arrivals = new CopyOnWriteArrayList<>();
    final List<String> threads = new CopyOnWriteArrayList<>();
    final CountDownLatch subscribed = new CountDownLatch(1);
    final CountDownLatch terminated = new CountDownLatch(1);
    volatile CountDownLatch requested = new CountDownLatch(0); // the items of the last request()
    volatile Subscription subscription;
    volatile Throwable error;
    volatile boolean completed;

    @Override
    public void onSubscribe(Subscription subscription) {
        this.subscription = subscription;
        subscribed.countDown();
    }

    @Override
    public void onNext(ByteBuffer item) {
        items.add(item);
        arrivals.add(System.nanoTime());
        threads.add(Thread.currentThread().getName());
        requested.countDown();
    }

    @Override
    public void onError(Throwable error) {
        ended(error);
    }

    @Override
    public void onComplete() {
        ended(null);
    }

    /** Records how the stream ended, then releases {@link #terminated}. */
    private void ended(Throwable failure) {
        error = failure;
        completed = failure == null;
        terminated.countDown();
    }

    /** Requests {@code n} and arms {@link #requested} to count them down. */
    void request(int n) {
        requested = new CountDownLatch(n);
        subscription.request(n);
    }

    List<Integer> sizes() {
        return items.stream().map(ByteBuffer::remaining).toList();
    }
}
