package io.sluice.bench.adaptive;

import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A producer of fresh {@code itemBytes} buffers at the pace of a {@link RateSchedule} (which
 * starts at subscribe), honouring demand strictly: never more {@code onNext} than requested
 * (§1.1), nothing produced ahead of demand.
 *
 * <p><b>Threading:</b> {@link Emission#ASYNC} emits from its own daemon thread per subscriber
 * (which also calls {@code onSubscribe}), parking while there is no demand or while the schedule
 * says wait; {@link Emission#SYNC} emits inside {@code request}, on the requesting thread, pacing
 * there (a blocking source), with re-entrant requests only adding demand (§3.3).
 *
 * <p><b>Errors:</b> {@code request(n <= 0)} ends the stream with {@code onError} naming §3.9.
 */
public final class ScheduledPublisher implements Publisher<ByteBuffer> {

    /** Where items are emitted from. */
    public enum Emission { ASYNC, SYNC }

    /** Told after each {@code onNext} how many bytes have been emitted so far; must be fast. */
    @FunctionalInterface
    public interface EmissionProbe {
        void emitted(long totalBytes);
    }

    private static final AtomicInteger THREAD_IDS = new AtomicInteger();

    private final int itemBytes;
    private final long maxItems;
    private final RateSchedule schedule;
    private final Emission emission;
    private final PacingClock clock;
    private final EmissionProbe probe;
    private final List<Thread> threads = new CopyOnWriteArrayList<>();

    /**
     * @param maxItems items before {@code onComplete}; {@code Long.MAX_VALUE}: endless
     * @param probe called after every item, or {@code null}
     */
    public ScheduledPublisher(int itemBytes, long maxItems, RateSchedule schedule, Emission emission,
                              PacingClock clock, EmissionProbe probe) {
        if (itemBytes <= 0) {
            throw new IllegalArgumentException("itemBytes must be positive, was " + itemBytes);
        }
        if (maxItems < 0) {
            throw new IllegalArgumentException("maxItems must not be negative, was " + maxItems);
        }
        this.itemBytes = itemBytes;
        this.maxItems = maxItems;
        this.schedule = Objects.requireNonNull(schedule, "schedule");
        this.emission = Objects.requireNonNull(emission, "emission");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.probe = probe;
    }

    @Override
    public void subscribe(Subscriber<? super ByteBuffer> subscriber) {
        Objects.requireNonNull(subscriber, "§1.9: subscriber must not be null");
        ItemSubscription subscription = new ItemSubscription(subscriber);
        if (emission == Emission.SYNC) {
            subscriber.onSubscribe(subscription);
            return;
        }
        Thread thread = new Thread(subscription::runAsync, "scheduled-producer-" + THREAD_IDS.incrementAndGet());
        thread.setDaemon(true);
        subscription.thread = thread;
        threads.add(thread);
        thread.start();
    }

    /** Waits for the emitting threads started so far to end; returns false if one is still alive. */
    public boolean awaitThreads(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Thread thread : threads) {
            long left = deadline - System.nanoTime();
            if (left > 0) {
                thread.join(Math.max(1, left / 1_000_000));
            }
            if (thread.isAlive()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return itemBytes + " B items at " + schedule + " (" + emission + ")";
    }

    private final class ItemSubscription implements Subscription {
        private final Subscriber<? super ByteBuffer> subscriber;
        private final AtomicLong demand = new AtomicLong();          // any thread -> emitter
        private final AtomicInteger emitting = new AtomicInteger();   // SYNC: one emitter at a time
        private volatile boolean cancelled;                          // any thread -> emitter
        private volatile IllegalArgumentException badRequest;         // request -> emitter
        private volatile Thread thread;                              // ASYNC only
        private Pacer pacer;                                         // emitter only
        private long emittedItems;                                   // emitter only
        private boolean done;                                        // emitter only
        private boolean idle = true;                                 // emitter only: had no demand

        ItemSubscription(Subscriber<? super ByteBuffer> subscriber) {
            this.subscriber = subscriber;
        }

        @Override
        public void request(long n) {
            if (n <= 0) {
                badRequest = new IllegalArgumentException("§3.9: request must be positive, was " + n);
            } else {
                demand.getAndAccumulate(n, (current, add) -> {
                    long sum = current + add;
                    return sum < 0 ? Long.MAX_VALUE : sum;                // §3.17: saturate
                });
            }
            if (emission == Emission.ASYNC) {
                LockSupport.unpark(thread);
            } else if (emitting.getAndIncrement() == 0) {
                int missed = 1;
                do {
                    emitAvailable();
                    missed = emitting.addAndGet(-missed);
                } while (missed != 0);
            }
        }

        @Override
        public void cancel() {
            cancelled = true;                                             // §3.5, §3.7: idempotent
            LockSupport.unpark(thread);
        }

        void runAsync() {
            subscriber.onSubscribe(this);
            while (!done && !cancelled) {
                if (badRequest == null && demand.get() == 0 && emittedItems < maxItems) {
                    LockSupport.park(this);
                    continue;
                }
                emitAvailable();
            }
        }

        /** Emits while there is demand; the emitter only. */
        private void emitAvailable() {
            if (pacer == null) {
                pacer = new Pacer(schedule, clock.nanoTime());
            }
            while (!done && !cancelled) {
                IllegalArgumentException error = badRequest;
                if (error != null) {
                    done = true;
                    cancelled = true;
                    subscriber.onError(error);
                    return;
                }
                if (emittedItems == maxItems) {
                    done = true;
                    subscriber.onComplete();
                    return;
                }
                long current = demand.get();
                if (current == 0) {
                    idle = true;                                          // parks until the next request
                    return;
                }
                if (idle) {
                    pacer.resume(clock.nanoTime());                       // no credit for the idle spell
                    idle = false;
                }
                long deadline = pacer.reserveContinuing(itemBytes);       // busy since: its own work is not idleness
                clock.sleepUntil(deadline, () -> cancelled);
                if (cancelled) {
                    return;
                }
                if (current != Long.MAX_VALUE) {
                    demand.decrementAndGet();
                }
                emittedItems++;
                ByteBuffer item = ByteBuffer.allocate(itemBytes);         // fresh: the subscriber owns it
                if (itemBytes >= Long.BYTES) {
                    item.putLong(0, emittedItems);                        // a sequence number, for debugging
                }
                subscriber.onNext(item);
                if (probe != null) {
                    probe.emitted(emittedItems * itemBytes);
                }
            }
        }
    }
}
