package io.sluice.properties;

import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A single-subscriber upstream of given buffers that honours demand and records what the writer
 * does to it: request calls, cancels, calls that overlap (§2.7). It emits either synchronously
 * inside {@code request} (trampolined, §3.3) or from its own thread. Hooks let a test act at a
 * chosen request call or after a chosen item.
 */
final class Upstream implements Publisher<ByteBuffer> {

    /** Where items are emitted from. */
    enum Emission {
        SYNCHRONOUS,
        FROM_ANOTHER_THREAD
    }

    private final List<ByteBuffer> items;
    private final Emission emission;
    private final boolean deferOnSubscribe;

    final AtomicInteger cancels = new AtomicInteger(); // any thread
    final AtomicInteger requestCalls = new AtomicInteger(); // any thread
    final AtomicInteger delivered = new AtomicInteger(); // the emitting thread
    final AtomicBoolean completed = new AtomicBoolean(); // the emitting thread
    final AtomicReference<String> violation = new AtomicReference<>(); // any thread: first rule broken

    private volatile IntConsumer onRequest = call -> {}; // set before subscribe; called with the call's number
    private volatile IntConsumer afterItem = count -> {}; // set before subscribe; called with the items delivered
    private volatile Runnable afterComplete = () -> {}; // set before subscribe

    private final Object lock = new Object();
    private long demand; // guarded by lock
    private boolean cancelled; // guarded by lock
    private Subscriber<? super ByteBuffer> subscriber; // set once in subscribe (any thread), read by emitters
    private Thread emitter; // set once in start (test thread)

    Upstream(List<ByteBuffer> items, Emission emission, boolean deferOnSubscribe) {
        this.items = items;
        this.emission = emission;
        this.deferOnSubscribe = deferOnSubscribe;
    }

    Upstream onRequest(IntConsumer hook) {
        this.onRequest = hook;
        return this;
    }

    Upstream afterItem(IntConsumer hook) {
        this.afterItem = hook;
        return this;
    }

    Upstream afterComplete(Runnable hook) {
        this.afterComplete = hook;
        return this;
    }

    @Override
    public void subscribe(Subscriber<? super ByteBuffer> subscriber) {
        synchronized (lock) {
            if (this.subscriber != null) {
                fail("a second subscribe");
            }
            this.subscriber = subscriber;
        }
        if (!deferOnSubscribe) {
            start();
        }
    }

    /** Delivers a deferred {@code onSubscribe}, on the calling thread. */
    void start() {
        subscriber.onSubscribe(new Emitting());
        if (emission == Emission.FROM_ANOTHER_THREAD) {
            emitter = new Thread(this::emitFromThread, "upstream-emitter");
            emitter.setDaemon(true);
            emitter.start();
        }
    }

    /** Waits until the emitting thread (if any) has ended: it ends once cancelled or completed. */
    void awaitEmitterEnd() throws InterruptedException {
        if (emitter != null) {
            emitter.join(30_000);
            assertTrue(
                    !emitter.isAlive(),
                    "the upstream was neither cancelled nor completed: its emitter still waits"
                            + " for demand after " + delivered + " of " + items.size() + " items, " + requestCalls
                            + " request calls, " + cancels + " cancels");
        }
    }

    int size() {
        return items.size();
    }

    private void emitFromThread() {
        for (int next = 0; next < items.size(); next++) {
            synchronized (lock) {
                while (demand == 0 && !cancelled) {
                    try {
                        lock.wait();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                if (cancelled) {
                    return;
                }
                demand--;
            }
            subscriber.onNext(items.get(next));
            afterItem.accept(delivered.incrementAndGet());
        }
        synchronized (lock) {
            if (cancelled) {
                return;
            }
        }
        completed.set(true);
        subscriber.onComplete();
        afterComplete.run();
    }

    private final class Emitting implements Subscription {
        private final AtomicReference<Thread> inCall = new AtomicReference<>();
        private int depth; // the thread in a call only
        private boolean emitting; // synchronous emission: the thread in request only (§3.3)
        private int next; // synchronous emission: the thread in request only

        @Override
        public void request(long n) {
            enter("request");
            try {
                if (n <= 0) {
                    violation.compareAndSet(null, "§3.9: request(" + n + ")");
                    return;
                }
                onRequest.accept(requestCalls.incrementAndGet());
                synchronized (lock) {
                    demand = demand + n < 0 ? Long.MAX_VALUE : demand + n;
                    lock.notifyAll();
                }
                if (emission == Emission.SYNCHRONOUS && !emitting) {
                    emitting = true;
                    try {
                        emitSynchronously();
                    } finally {
                        emitting = false;
                    }
                }
            } finally {
                leave();
            }
        }

        private void emitSynchronously() {
            while (next < items.size()) {
                synchronized (lock) {
                    if (demand == 0 || cancelled) {
                        return;
                    }
                    demand--;
                }
                subscriber.onNext(items.get(next++));
                afterItem.accept(delivered.incrementAndGet());
            }
            synchronized (lock) {
                if (cancelled || completed.get()) {
                    return;
                }
            }
            completed.set(true);
            subscriber.onComplete();
            afterComplete.run();
        }

        @Override
        public void cancel() {
            enter("cancel");
            try {
                cancels.incrementAndGet();
                synchronized (lock) {
                    cancelled = true;
                    lock.notifyAll();
                }
            } finally {
                leave();
            }
        }

        private void enter(String call) {
            Thread current = Thread.currentThread();
            if (inCall.get() == current) {
                depth++; // reentrant on the same thread: allowed
                return;
            }
            if (!inCall.compareAndSet(null, current)) {
                violation.compareAndSet(
                        null, "§2.7: " + call + " on " + current.getName() + " overlapped a call on " + inCall.get());
                return;
            }
            depth = 1;
        }

        private void leave() {
            if (inCall.get() == Thread.currentThread() && --depth == 0) {
                inCall.set(null);
            }
        }
    }
}
