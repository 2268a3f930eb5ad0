package io.sluice.tck.support;

import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A subscriber that records every protocol violation it sees instead of throwing (a throwing
 * subscriber would itself break §2.13 and hide the next violation):
 * <ul>
 *   <li>§1.3: a signal that starts while another is still running (overlapping signals);</li>
 *   <li>§1.9: a signal before {@code onSubscribe}, or a second {@code onSubscribe};</li>
 *   <li>§1.1: an {@code onNext} beyond the total requested so far;</li>
 *   <li>§1.7: any signal after {@code onComplete} / {@code onError}.</li>
 * </ul>
 * {@link #request} and {@link #cancel} may be called from any thread, as a test hammers them;
 * demand is counted before it is passed on, so an {@code onNext} it allows is never counted as
 * beyond demand.
 */
public final class ProtocolChecker<T> implements Subscriber<T> {

    private final AtomicInteger signalling = new AtomicInteger();
    private final AtomicLong requested = new AtomicLong();
    private final AtomicLong received = new AtomicLong();
    private final ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
    private final CountDownLatch subscribed = new CountDownLatch(1);
    private final CountDownLatch terminated = new CountDownLatch(1);
    private final Consumer<T> onItem;
    private volatile Subscription subscription;
    private volatile boolean done;
    private volatile Throwable error;

    public ProtocolChecker() {
        this(item -> {});
    }

    /** @param onItem sees each item in order, inside {@code onNext} (a content check, say) */
    public ProtocolChecker(Consumer<T> onItem) {
        this.onItem = onItem;
    }

    @Override
    public void onSubscribe(Subscription subscription) {
        enter("onSubscribe");
        try {
            if (this.subscription != null) {
                violation("§1.9/§2.12: onSubscribe signalled twice");
                return;
            }
            this.subscription = subscription;
            subscribed.countDown();
        } finally {
            exit();
        }
    }

    @Override
    public void onNext(T item) {
        enter("onNext");
        try {
            if (subscription == null) {
                violation("§1.9: onNext before onSubscribe");
            }
            long count = received.incrementAndGet();
            long demand = requested.get();
            if (count > demand) {
                violation("§1.1: onNext #" + count + " but only " + demand + " requested");
            }
            onItem.accept(item);
        } finally {
            exit();
        }
    }

    @Override
    public void onError(Throwable error) {
        terminal("onError");
        this.error = error;
        terminated.countDown();
        exit();
    }

    @Override
    public void onComplete() {
        terminal("onComplete");
        terminated.countDown();
        exit();
    }

    private void terminal(String signal) {
        enter(signal);
        if (subscription == null) {
            violation("§1.9: " + signal + " before onSubscribe");
        }
        done = true;
    }

    private void enter(String signal) {
        if (signalling.getAndIncrement() != 0) {
            violation("§1.3: " + signal + " overlapped another signal (on "
                    + Thread.currentThread().getName() + ")");
        }
        if (done) {
            violation("§1.7: " + signal + " after a terminal signal");
        }
    }

    private void exit() {
        signalling.decrementAndGet();
    }

    private void violation(String message) {
        violations.add(message);
    }

    /** Adds {@code n} to the demand (capped at {@code Long.MAX_VALUE}, §3.17), then requests it. */
    public void request(long n) {
        requested.accumulateAndGet(n, (current, more) -> {
            long sum = current + more;
            return sum < 0 ? Long.MAX_VALUE : sum;
        });
        subscription.request(n);
    }

    public void cancel() {
        subscription.cancel();
    }

    public boolean awaitSubscribed(long millis) throws InterruptedException {
        return subscribed.await(millis, TimeUnit.MILLISECONDS);
    }

    public boolean awaitTerminated(long millis) throws InterruptedException {
        return terminated.await(millis, TimeUnit.MILLISECONDS);
    }

    public boolean isTerminated() {
        return terminated.getCount() == 0;
    }

    public long received() {
        return received.get();
    }

    /**
     * The demand requested so far. {@link #request} counts before it passes the demand on, so
     * once this is read as {@code r}, every request that takes the total past {@code r} reaches
     * the publisher after the read.
     */
    public long requested() {
        return requested.get();
    }

    /** The terminal error, or null (none, or completed). */
    public Throwable error() {
        return error;
    }

    public List<String> violations() {
        return new ArrayList<>(violations);
    }
}
