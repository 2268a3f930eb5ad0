package io.sluice.server.load;

import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An upload body as a client on a finite link sends it: {@code totalBytes} in chunks of at most
 * {@code chunkBytes}, at most {@code bytesPerSecond}, and only as far as the subscriber has asked.
 * Each chunk is a fresh heap buffer (as the server's {@code RequestBodyPublisher} copies each Jetty
 * chunk), so what a writer queues is real heap.
 *
 * <p>Pacing is a token bucket holding at most {@code burstBytes}: while the subscriber asks for
 * nothing the client keeps sending until the kernel's receive buffer is full, and those bytes are
 * there at once when demand returns; beyond that, time without demand is not made up. A late timer
 * is made up (tokens accrue with real time), so a loaded machine does not slow the client below its
 * rate unless it is late by more than the burst. A client reads its next chunk no sooner than
 * {@link #TICK_NANOS} after the last, so a stream costs at most 1,000 wake-ups per second.
 *
 * <p><b>Threading:</b> one timer thread (a single-threaded {@code timer}, shared by any number of
 * publishers) makes every signal after {@code onSubscribe}, so they are serial (§1.3); the token
 * bucket and the bytes left are confined to it. {@code request} and {@code cancel} may come from any
 * thread: they touch only the atomics. {@code onSubscribe} is signalled on the subscribing thread.
 *
 * <p><b>Backpressure:</b> never emits more than requested (§1.1); {@code request(n <= 0)} fails
 * the stream with {@link IllegalArgumentException} (§3.9); demand saturates at
 * {@code Long.MAX_VALUE} (§3.17).
 *
 * <p><b>Resources:</b> holds a chunk-sized pattern; the timer belongs to the caller.
 */
final class PacedPublisher implements Publisher<ByteBuffer> {

    static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final long totalBytes;
    private final int chunkBytes;
    private final double bytesPerSecond;
    private final long burstBytes;
    private final ScheduledExecutorService timer;
    private final byte[] pattern;

    /**
     * @param totalBytes bytes the body holds
     * @param chunkBytes the largest chunk, at least 1
     * @param bytesPerSecond the client's rate, positive
     * @param burstBytes what the client may have sent ahead while not being read, at least
     *     {@code chunkBytes}
     * @param timer a single-threaded scheduler that makes every signal
     * @param pattern the bytes each chunk repeats, at least {@code chunkBytes} long
     */
    PacedPublisher(long totalBytes, int chunkBytes, double bytesPerSecond, long burstBytes,
                   ScheduledExecutorService timer, byte[] pattern) {
        if (chunkBytes < 1 || bytesPerSecond <= 0 || burstBytes < chunkBytes || pattern.length < chunkBytes
                || totalBytes < 0) {
            throw new IllegalArgumentException("need totalBytes >= 0, chunkBytes >= 1, bytesPerSecond > 0,"
                    + " burstBytes >= chunkBytes and a pattern of at least chunkBytes; got " + totalBytes + ", "
                    + chunkBytes + ", " + bytesPerSecond + ", " + burstBytes + ", " + pattern.length);
        }
        this.totalBytes = totalBytes;
        this.chunkBytes = chunkBytes;
        this.bytesPerSecond = bytesPerSecond;
        this.burstBytes = burstBytes;
        this.timer = timer;
        this.pattern = pattern;
    }

    @Override
    public void subscribe(Subscriber<? super ByteBuffer> subscriber) {
        Objects.requireNonNull(subscriber, "§1.9: subscriber must not be null");
        PacedSubscription subscription = new PacedSubscription(subscriber);
        subscriber.onSubscribe(subscription);
    }

    private final class PacedSubscription implements Subscription {
        private final Subscriber<? super ByteBuffer> subscriber;
        private final AtomicLong demand = new AtomicLong();               // any thread -> timer
        private final AtomicBoolean pumpPending = new AtomicBoolean();    // any thread <-> timer
        private volatile boolean cancelled;                               // any thread -> timer
        private volatile Throwable badRequest;                            // request -> timer (§3.9)

        private long remaining = totalBytes;         // timer-confined
        private double tokens = burstBytes;          // timer-confined: the receive buffer starts full
        private long refilledAt = System.nanoTime(); // timer-confined (set before the timer runs)
        private long lastPumpAt = Long.MIN_VALUE;    // timer-confined
        private boolean done;                        // timer-confined

        PacedSubscription(Subscriber<? super ByteBuffer> subscriber) {
            this.subscriber = subscriber;
        }

        @Override
        public void request(long n) {
            if (n <= 0) {
                badRequest = new IllegalArgumentException("§3.9: request must be positive, was " + n);
            } else {
                demand.getAndAccumulate(n, (had, more) -> had + more < 0 ? Long.MAX_VALUE : had + more); // §3.17
            }
            schedule(0);
        }

        @Override
        public void cancel() {
            cancelled = true;                        // §3.5, §3.7: idempotent; the timer stops signalling
        }

        private void schedule(long delayNanos) {
            if (!pumpPending.compareAndSet(false, true)) {
                return;                              // a pump is due; it will see the new demand
            }
            try {
                timer.schedule(this::pump, delayNanos, TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                pumpPending.set(false);
                cancelled = true;                    // the run is over; nobody is listening
            }
        }

        /** Runs on the timer only. */
        private void pump() {
            pumpPending.set(false);                  // before reading demand: a later request reschedules
            if (done || cancelled) {
                return;
            }
            if (badRequest != null) {
                done = true;
                subscriber.onError(badRequest);
                return;
            }
            long now = System.nanoTime();
            if (now - lastPumpAt < TICK_NANOS && lastPumpAt != Long.MIN_VALUE) {
                schedule(TICK_NANOS - (now - lastPumpAt));
                return;
            }
            tokens = Math.min(burstBytes, tokens + (now - refilledAt) * bytesPerSecond / 1e9);
            refilledAt = now;
            lastPumpAt = now;
            while (remaining > 0 && demand.get() > 0 && !cancelled) {
                int size = (int) Math.min(chunkBytes, remaining);
                if (tokens < size) {
                    schedule(Math.max(TICK_NANOS, (long) ((size - tokens) / bytesPerSecond * 1e9)));
                    return;
                }
                tokens -= size;
                remaining -= size;
                demand.decrementAndGet();
                ByteBuffer chunk = ByteBuffer.allocate(size);
                chunk.put(pattern, 0, size).flip();
                subscriber.onNext(chunk);
            }
            if (remaining == 0 && !cancelled) {
                done = true;
                subscriber.onComplete();
            }
        }
    }
}
