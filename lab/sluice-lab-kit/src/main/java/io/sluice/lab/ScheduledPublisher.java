package io.sluice.lab;

import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A producer of fresh heap buffers of {@code itemBytes} (the last one shorter) at the pace of a
 * {@link Schedule} that starts at the first request, never emitting more than requested (§1.1) nor
 * ahead of demand; time without demand is not made up, except for a burst allowance (what a client
 * has sent ahead into the receive buffer, there at once when demand returns). The pacing state is
 * confined to the emitter ({@link Emission}); {@code request} and {@code cancel} may come from any
 * thread and touch only the atomics. {@code request(n <= 0)} ends the stream with {@code onError}
 * naming §3.9; demand saturates at {@code Long.MAX_VALUE} (§3.17).
 */
public final class ScheduledPublisher implements Publisher<ByteBuffer> {

    /**
     * Where items are emitted from: ASYNC, a daemon thread per subscriber (which also calls
     * {@code onSubscribe}), parking while there is no demand or the schedule says wait; SYNC, inside
     * {@code request} on the requesting thread, re-entrant requests only adding demand (§3.3); TIMER,
     * {@link #timed}'s single-threaded scheduler, shareable, with {@code onSubscribe} called on the
     * subscribing thread.
     */
    public enum Emission {
        ASYNC,
        SYNC,
        TIMER
    }

    /** Told on the emitter after each {@code onNext} how many bytes have been emitted so far; must be fast. */
    @FunctionalInterface
    public interface EmissionProbe {
        void emitted(long totalBytes);
    }

    /** TIMER: the shortest time between two runs of one subscription's emitter (1,000 wake-ups/s at most). */
    public static final long TIMER_TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private static final AtomicInteger THREAD_IDS = new AtomicInteger();

    private final int itemBytes; // immutable: any thread
    private final long totalBytes; // immutable: any thread
    private final Schedule schedule; // immutable: any thread
    private final long burstNanos; // immutable: any thread
    private final Emission emission; // immutable: any thread
    private final ScheduledExecutorService timer; // immutable; TIMER only
    private final PacingClock clock; // immutable: any thread
    private final EmissionProbe probe; // immutable: called by the emitter
    private final List<Thread> threads = new CopyOnWriteArrayList<>(); // subscribe -> awaitThreads

    /** Without burst allowance; {@code totalBytes} {@code Long.MAX_VALUE}: endless; {@code probe} nullable. */
    public ScheduledPublisher(
            long totalBytes,
            int itemBytes,
            Schedule schedule,
            Emission emission,
            PacingClock clock,
            EmissionProbe probe) {
        this(itemBytes, totalBytes, schedule, 0, emission, null, clock, probe);
        if (emission == Emission.TIMER) {
            throw new IllegalArgumentException("Emission.TIMER needs a scheduler: use ScheduledPublisher.timed");
        }
    }

    private ScheduledPublisher(
            int itemBytes,
            long totalBytes,
            Schedule schedule,
            long burstBytes,
            Emission emission,
            ScheduledExecutorService timer,
            PacingClock clock,
            EmissionProbe probe) {
        if (itemBytes <= 0) {
            throw new IllegalArgumentException("itemBytes must be positive, was " + itemBytes);
        }
        if (totalBytes < 0 || burstBytes < 0) {
            throw new IllegalArgumentException(
                    "totalBytes and burstBytes must not be negative, were " + totalBytes + " and " + burstBytes);
        }
        this.itemBytes = itemBytes;
        this.totalBytes = totalBytes;
        this.schedule = Objects.requireNonNull(schedule, "schedule");
        this.burstNanos = burstBytes == 0 ? 0 : schedule.finishNanos(0, burstBytes);
        this.emission = Objects.requireNonNull(emission, "emission");
        this.timer = timer;
        this.clock = Objects.requireNonNull(clock, "clock");
        this.probe = probe;
    }

    /**
     * An upload body as a client on a finite link sends it, {@code burstBytes} sent ahead (in the
     * schedule's time from its origin: exact for a constant rate); once {@code timer} rejects a task,
     * the streams it served stop.
     */
    public static ScheduledPublisher timed(
            long totalBytes,
            int itemBytes,
            Schedule schedule,
            long burstBytes,
            ScheduledExecutorService timer,
            PacingClock clock) {
        return new ScheduledPublisher(
                itemBytes,
                totalBytes,
                schedule,
                burstBytes,
                Emission.TIMER,
                Objects.requireNonNull(timer, "timer"),
                clock,
                null);
    }

    @Override
    public void subscribe(Subscriber<? super ByteBuffer> subscriber) {
        Objects.requireNonNull(subscriber, "§1.9: subscriber must not be null");
        ItemSubscription subscription = new ItemSubscription(subscriber);
        if (emission != Emission.ASYNC) {
            subscriber.onSubscribe(subscription);
            return;
        }
        Thread thread = new Thread(subscription::runAsync, "scheduled-producer-" + THREAD_IDS.incrementAndGet());
        thread.setDaemon(true);
        subscription.thread = thread;
        threads.add(thread);
        thread.start();
    }

    /** Waits up to {@code timeout} for the ASYNC emitting threads started so far to end; false if one lives. */
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
        private final Subscriber<? super ByteBuffer> subscriber; // immutable
        private final AtomicLong demand = new AtomicLong(); // any thread -> emitter
        private final AtomicInteger emitting = new AtomicInteger(); // SYNC: one emitter at a time
        private final AtomicBoolean runPending = new AtomicBoolean(); // TIMER: any thread <-> timer
        private volatile boolean cancelled; // any thread -> emitter
        private volatile IllegalArgumentException badRequest; // request -> emitter
        private volatile Thread thread; // ASYNC only: subscribe -> any thread
        private Pacer pacer; // emitter only
        private long emittedBytes; // emitter only
        private long dueNanos; // emitter only: the booked item's time
        private boolean booked; // emitter only: an item is booked
        private boolean done; // emitter only
        private boolean idle = true; // emitter only: had no demand
        private long lastRunNanos = Long.MIN_VALUE; // TIMER emitter only

        ItemSubscription(Subscriber<? super ByteBuffer> subscriber) {
            this.subscriber = subscriber;
        }

        @Override
        public void request(long n) {
            if (n <= 0) {
                badRequest = new IllegalArgumentException("§3.9: request must be positive, was " + n);
            } else {
                demand.accumulateAndGet(n, (current, add) -> current + add < 0 ? Long.MAX_VALUE : current + add);
            }
            switch (emission) {
                case ASYNC -> LockSupport.unpark(thread);
                case TIMER -> scheduleRun(0);
                case SYNC -> {
                    if (emitting.getAndIncrement() == 0) {
                        int missed = 1;
                        do {
                            emitAvailable();
                            missed = emitting.addAndGet(-missed);
                        } while (missed != 0);
                    }
                }
                default -> throw new AssertionError("unhandled emission " + emission);
            }
        }

        @Override
        public void cancel() {
            cancelled = true; // §3.5, §3.7: idempotent
            if (thread != null) {
                LockSupport.unpark(thread);
            }
        }

        void runAsync() {
            subscriber.onSubscribe(this);
            while (!done && !cancelled) {
                if (badRequest == null && demand.get() == 0 && emittedBytes < totalBytes) {
                    LockSupport.park(this);
                    continue;
                }
                emitAvailable();
            }
        }

        /** TIMER: has the emitter run after {@code delayNanos}, unless a run is due already. */
        private void scheduleRun(long delayNanos) {
            if (!runPending.compareAndSet(false, true)) {
                return; // a run is due; it sees the new demand
            }
            try {
                timer.schedule(this::runOnTimer, delayNanos, TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                runPending.set(false);
                cancelled = true; // the run is over; nobody is listening
            }
        }

        /** TIMER: the emitter, on the timer only. */
        private void runOnTimer() {
            runPending.set(false); // before reading demand: requests reschedule
            long now = clock.nanoTime();
            if (lastRunNanos != Long.MIN_VALUE && now - lastRunNanos < TIMER_TICK_NANOS) {
                scheduleRun(TIMER_TICK_NANOS - (now - lastRunNanos));
                return;
            }
            lastRunNanos = now;
            emitAvailable();
        }

        /** Emits while there is demand; the emitter only. */
        private void emitAvailable() {
            if (pacer == null) {
                pacer = new Pacer(schedule, clock.nanoTime() - burstNanos); // starts with the burst sent ahead
            }
            while (!done && !cancelled) {
                IllegalArgumentException error = badRequest;
                if (error != null) {
                    done = true;
                    cancelled = true;
                    subscriber.onError(error);
                    return;
                }
                if (emittedBytes == totalBytes) {
                    done = true;
                    subscriber.onComplete();
                    return;
                }
                long current = demand.get();
                if (current == 0) {
                    idle = true; // waits until the next request
                    return;
                }
                int size = (int) Math.min(itemBytes, totalBytes - emittedBytes);
                if (!booked) {
                    if (idle) {
                        pacer.resume(clock.nanoTime() - burstNanos); // the idle spell earns the burst at most
                        idle = false;
                    }
                    dueNanos = pacer.reserveContinuing(size); // busy since: its own work is not idleness
                    booked = true;
                }
                if (!awaitDue()) {
                    return;
                }
                booked = false;
                if (current != Long.MAX_VALUE) {
                    demand.decrementAndGet();
                }
                emittedBytes += size;
                subscriber.onNext(ByteBuffer.allocate(size)); // fresh: the subscriber owns it
                if (probe != null) {
                    probe.emitted(emittedBytes);
                }
            }
        }

        /** Waits for the booked item's time (TIMER: reschedules if it lies ahead); whether to emit it now. */
        private boolean awaitDue() {
            if (emission != Emission.TIMER) {
                clock.sleepUntil(dueNanos, () -> cancelled);
                return !cancelled;
            }
            long left = dueNanos - clock.nanoTime();
            if (left > 0) {
                scheduleRun(Math.max(TIMER_TICK_NANOS, left));
                return false;
            }
            return !cancelled;
        }
    }
}
