package io.sluice.reliability;

import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Records what a read publisher signals, requesting as the test says. Counts every terminal
 * signal so that tests can insist on exactly one, and every signal after one (§1.7).
 */
final class RecordingSubscriber implements Subscriber<ByteBuffer> {

    final List<ByteBuffer> chunks = new CopyOnWriteArrayList<>();
    final List<Throwable> errors = new CopyOnWriteArrayList<>();
    final AtomicInteger completions = new AtomicInteger();
    final AtomicInteger signalsAfterTerminal = new AtomicInteger();
    final CountDownLatch terminated = new CountDownLatch(1);
    final CountDownLatch firstChunk = new CountDownLatch(1);
    private final long initialRequest;
    private volatile Subscription subscription;

    RecordingSubscriber(long initialRequest) {
        this.initialRequest = initialRequest;
    }

    @Override
    public void onSubscribe(Subscription subscription) {
        this.subscription = subscription;
        if (initialRequest > 0) {
            subscription.request(initialRequest);
        }
    }

    @Override
    public void onNext(ByteBuffer chunk) {
        if (terminated.getCount() == 0) {
            signalsAfterTerminal.incrementAndGet();
        }
        chunks.add(chunk);
        firstChunk.countDown();
    }

    @Override
    public void onError(Throwable error) {
        if (terminated.getCount() == 0) {
            signalsAfterTerminal.incrementAndGet();
        }
        errors.add(error);
        terminated.countDown();
    }

    @Override
    public void onComplete() {
        if (terminated.getCount() == 0) {
            signalsAfterTerminal.incrementAndGet();
        }
        completions.incrementAndGet();
        terminated.countDown();
    }

    void request(long n) {
        subscription.request(n);
    }

    void cancel() {
        subscription.cancel();
    }

    void awaitFirstChunk() throws InterruptedException {
        assertTrue(firstChunk.await(Stages.TIMEOUT_SECONDS, TimeUnit.SECONDS), "no chunk arrived");
    }

    void awaitTerminal() throws InterruptedException {
        assertTrue(terminated.await(Stages.TIMEOUT_SECONDS, TimeUnit.SECONDS), "no terminal signal arrived");
    }

    /** Waits for the terminal signal; returns the one error, failing if it completed or erred twice. */
    Throwable awaitOneError() throws InterruptedException {
        awaitTerminal();
        assertTrue(
                completions.get() == 0 && errors.size() == 1 && signalsAfterTerminal.get() == 0,
                "expected exactly one onError and nothing after it, got errors " + errors + ", completions "
                        + completions + ", late signals " + signalsAfterTerminal);
        return errors.get(0);
    }
}
