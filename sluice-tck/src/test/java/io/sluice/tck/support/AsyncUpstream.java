package io.sluice.tck.support;

import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;

import java.nio.ByteBuffer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A one-subscriber upstream that emits on its own executor, never more than requested: requests
 * only add demand and wake its emitter (one emitter pass at a time, so its signals are serial,
 * §1.3). Sends {@code items} buffers of {@code itemBytes}, then {@code onComplete}.
 */
public final class AsyncUpstream implements Publisher<ByteBuffer> {

    private final long items;
    private final int itemBytes;
    private final Executor executor;
    private final AtomicLong demand = new AtomicLong();
    private final AtomicInteger wakeUps = new AtomicInteger();
    private volatile boolean stopped;
    private final CountDownLatch ended = new CountDownLatch(1); // cancelled or completed
    private volatile CheckedSubscription subscription;
    private Subscriber<? super ByteBuffer> subscriber;
    private long sent; // emitter only

    public AsyncUpstream(long items, int itemBytes, Executor executor) {
        this.items = items;
        this.itemBytes = itemBytes;
        this.executor = executor;
    }

    @Override
    public void subscribe(Subscriber<? super ByteBuffer> subscriber) {
        this.subscriber = subscriber;
        subscription = new CheckedSubscription(new CheckedSubscription.Calls() {
            @Override
            public void request(long n) {
                if (n > 0) {
                    demand.accumulateAndGet(n, (current, more) -> current + more < 0 ? Long.MAX_VALUE : current + more);
                    wake();
                }
            }

            @Override
            public void cancel() {
                stopped = true;
                ended.countDown();
            }
        });
        subscriber.onSubscribe(subscription);
    }

    public CheckedSubscription subscription() {
        return subscription;
    }

    /** Opens when the subscriber cancelled or the upstream completed. */
    public CountDownLatch endedLatch() {
        return ended;
    }

    private void wake() {
        if (wakeUps.getAndIncrement() == 0) {
            executor.execute(this::emit);
        }
    }

    private void emit() {
        int missed = wakeUps.get();
        for (; ; ) {
            while (!stopped && sent < items && demand.get() > 0) {
                demand.decrementAndGet();
                sent++;
                subscriber.onNext(ByteBuffer.allocate(itemBytes));
            }
            if (!stopped && sent == items) {
                stopped = true;
                ended.countDown();
                subscriber.onComplete();
            }
            missed = wakeUps.addAndGet(-missed);
            if (missed == 0) {
                return;
            }
        }
    }
}
