package io.sluice.spring;

import io.sluice.internal.SerialDrain;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.codec.multipart.PartEvent;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A streamed form's events, taken one part at a time: {@link FileParts#store} waits for the next
 * part's first event ({@link #nextHead()}), then either hands the part's contents to a write
 * ({@link #partContents()}, through the event whose {@link PartEvent#isLast()} is true) or releases
 * them ({@link #skipPart()}), and asks again. One queue, one drain, no operator in between that
 * could hold an event when the store ends.
 *
 * <p>Invariants:
 * <ul>
 *   <li>M1: every event received is released exactly once: while it is in the queue it is the
 *       cursor's, and the cursor releases it once cancelled; an event handed to a part's
 *       subscriber is that subscriber's (the write gives each buffer back). An event that arrives
 *       after cancel is released on arrival (§2.8). The upstream's discard hook releases only events
 *       the cursor never received: an operator that discards a value it has already emitted (as
 *       {@code concatMap} does on cancel) would otherwise release the cursor's event a second
 *       time.</li>
 *   <li>M2: one consumer at a time (a head waiter, a part's subscriber, a skip), served by the
 *       drain, which alone polls the queue, requests from or cancels the upstream and signals the
 *       consumer: the upstream's requests are serial (§2.7), a part subscriber's signals too
 *       (§1.3).</li>
 *   <li>M3: the upstream is kept {@link #PREFETCH} events ahead of those taken, whatever the
 *       consumer asks: the operators upstream pass each event on as it is made and hold none
 *       (Spring's multipart reader holds its tokens in windows of its own, whose discard no hook
 *       of ours can match), and the cursor holds them, at most that many. Events past a part's
 *       last wait in the queue for the next part.</li>
 *   <li>M4: a pass that throws (a consumer breaking §2.13) ends the cursor: the drain stays held
 *       ({@link SerialDrain} D4), so {@link #passFailed} does what a cancel's pass would, and from
 *       then on an event is released on arrival and a consumer is failed on arrival. Each is
 *       checked after it is published (the event queued, the consumer installed), and the
 *       failure is published before the queue is emptied, so none is left behind.</li>
 * </ul>
 */
final class PartCursor implements CoreSubscriber<PartEvent> {

    private static final Log LOG = LogFactory.getLog(PartCursor.class);
    /** Events requested ahead of those taken (M3): {@code windowUntil}'s prefetch, which the store used before. */
    static final int PREFETCH = 256;

    /** The first event of a part, still in the cursor's queue (M1): a holder no discard hook matches. */
    record Head(PartEvent event) {}

    private final Context context; // the store subscriber's, for the upstream's operators
    private final Queue<PartEvent> queue = new ConcurrentLinkedQueue<>(); // upstream -> drain (M1)
    private final SerialDrain drain = SerialDrain.of(Runnable::run, this::pass, this::passFailed, false); // M2
    private final AtomicReference<Consumer> next = new AtomicReference<>(); // installer -> drain: the next consumer
    private volatile Subscription upstream; // set once by onSubscribe, then used by the drain only
    private Throwable error; // written before done, read after it
    private volatile boolean done; // upstream -> drain: onComplete or onError arrived
    private volatile boolean cancelled; // any thread -> drain (M1)
    private volatile boolean ended; // drain -> store: the form ended where a part would start
    private volatile Throwable failure; // the failed pass -> everyone: the drain will not run again (M4)
    private volatile PartEvent lastReceived; // upstream -> discard hook: the event onNext took last (M1)
    private Consumer current; // drain-confined
    private long requestedUpstream; // drain-confined: events requested so far (M3)
    private long taken; // drain-confined: events polled so far
    private boolean upstreamCancelled; // drain-confined

    private PartCursor(ContextView context) {
        this.context = Context.of(context);
    }

    /**
     * Subscribes a cursor to {@code parts}; events that the upstream's own operators hold when it is
     * cancelled are released by their discard hook, except one the cursor has already received (M1).
     */
    static PartCursor over(Publisher<PartEvent> parts, ContextView context) {
        PartCursor cursor = new PartCursor(context);
        Flux.from(parts).doOnDiscard(PartEvent.class, cursor::discarded).subscribe(cursor);
        return cursor;
    }

    /** The next part's first event, left queued; empty once the form has ended (then {@link #ended()}). */
    Mono<Head> nextHead() {
        return Mono.create(sink -> install(new HeadWaiter(sink)));
    }

    /** Releases the current part's events, through its last; completes then. */
    Mono<Void> skipPart() {
        return Mono.create(sink -> install(new Skip(sink)));
    }

    /** The current part's contents, through its last event; one subscriber. */
    Publisher<DataBuffer> partContents() {
        AtomicBoolean subscribed = new AtomicBoolean();
        return subscriber -> {
            Objects.requireNonNull(subscriber, "subscriber"); // §1.9
            if (!subscribed.compareAndSet(false, true)) {
                subscriber.onSubscribe(Operators.emptySubscription());
                subscriber.onError(new IllegalStateException("a part's contents allow one subscriber"));
                return;
            }
            PartSubscription part = new PartSubscription(subscriber);
            subscriber.onSubscribe(part);
            install(part);
        };
    }

    /** Whether the form ended where the next part would have started. */
    boolean ended() {
        return ended;
    }

    /** Cancels the upstream and releases every event held now or arriving later (M1). */
    void cancel() {
        cancelled = true;
        drain.signal();
    }

    // ---- Subscriber side: the upstream's serial signals ----

    @Override
    public Context currentContext() {
        return context;
    }

    @Override
    public void onSubscribe(Subscription subscription) {
        Objects.requireNonNull(subscription, "§2.13: onSubscribe subscription");
        if (upstream != null) {
            subscription.cancel(); // §2.5: a second subscription
            return;
        }
        upstream = subscription;
        drain.signal();
    }

    @Override
    public void onNext(PartEvent event) {
        Objects.requireNonNull(event, "§2.13: onNext event");
        lastReceived = event;
        queue.offer(event);
        if (failure != null) {
            releaseQueued(); // M4: no drain will; after the offer, see passFailed
            return;
        }
        drain.signal(); // released there if cancelled (M1, §2.8)
    }

    @Override
    public void onError(Throwable failure) {
        error = Objects.requireNonNull(failure, "§2.13: onError throwable");
        done = true;
        drain.signal();
    }

    @Override
    public void onComplete() {
        done = true;
        drain.signal();
    }

    // ---- the drain ----

    private void install(Consumer consumer) {
        Throwable failed = failure;
        if (failed != null) {
            consumer.fail(ended(failed)); // M4: the drain will not run again
            return;
        }
        if (!next.compareAndSet(null, consumer)) {
            throw new IllegalStateException("a consumer is already waiting for this form's events");
        }
        drain.signal();
        if (failure != null && next.compareAndSet(consumer, null)) {
            consumer.fail(ended(failure)); // M4: the pass failed before it took this consumer
        }
    }

    /** One pass of the drain, run on whichever thread signalled it (M2). */
    private boolean pass() {
        serve();
        return false;
    }

    /**
     * M4, SerialDrain D4: a pass threw, which only a consumer breaking §2.13 (a part's subscriber
     * throwing from {@code onNext}) makes it do. The drain stays held, so this ends the cursor as
     * the drain would on cancel: the upstream is cancelled, the queued events are released, the
     * consumer waiting is failed, and every later consumer and event is refused or released at once.
     */
    private void passFailed(Throwable thrown) {
        LOG.warn("A consumer of a form's events threw; the form is cancelled", thrown);
        failure = thrown; // before the queue is emptied: see onNext
        cancelled = true;
        Subscription subscription = upstream;
        if (subscription != null && !upstreamCancelled) {
            upstreamCancelled = true;
            subscription.cancel();
        }
        releaseQueued();
        Consumer waiting = current != null ? current : next.getAndSet(null);
        current = null;
        if (waiting != null) {
            waiting.fail(ended(thrown));
        }
    }

    private static IllegalStateException ended(Throwable cause) {
        return new IllegalStateException("the form's events were ended by a failure of their consumer", cause);
    }

    private void releaseQueued() {
        for (PartEvent event; (event = queue.poll()) != null; ) {
            release(event); // M1
        }
    }

    private void serve() {
        Subscription subscription = upstream;
        if (cancelled) {
            if (subscription != null && !upstreamCancelled) {
                upstreamCancelled = true;
                subscription.cancel();
            }
            current = null;
            next.set(null);
            releaseQueued();
            return;
        }
        for (; ; ) {
            if (current == null) {
                current = next.getAndSet(null);
                if (current == null) {
                    break;
                }
            }
            if (!current.serve()) {
                break;
            }
            current = null; // done with: a consumer installed meanwhile is next
        }
        replenish(subscription);
    }

    /** M3: tops the events requested ahead up to {@link #PREFETCH}, once a quarter of them was taken. */
    private void replenish(Subscription subscription) {
        long wanted = PREFETCH - (requestedUpstream - taken);
        if (subscription != null && !done && wanted >= PREFETCH / 4) {
            requestedUpstream += wanted;
            subscription.request(wanted); // a synchronous onNext loops this drain once more
        }
    }

    /** Takes the next event, or null; drain only. */
    private PartEvent take() {
        PartEvent event = queue.poll();
        if (event != null) {
            taken++;
        }
        return event;
    }

    /** Completes {@code sink} empty, or with the upstream's error; after {@code done} was read true. */
    private void endEmpty(MonoSink<?> sink) {
        if (error != null) {
            sink.error(error);
        } else {
            sink.success();
        }
    }

    /**
     * The upstream's discard hook: releases an event its operators dropped, unless the cursor received
     * it, which makes it the cursor's (M1). Reactor's {@code concatMap} (3.7), cancelled after its inner
     * {@code Mono.just} has emitted, discards that value all the same; Spring's multipart reader builds
     * each event so, and an upload that fails mid-part cancels it right after the last event arrived.
     */
    private void discarded(PartEvent event) {
        if (event != lastReceived) {
            release(event);
        }
    }

    /** Releases an event's content; never throws, so the drain is never left held. */
    private static void release(PartEvent event) {
        try {
            DataBufferUtils.release(event.content());
        } catch (RuntimeException e) {
            LOG.warn("Releasing the content of " + event, e);
        }
    }

    /** Whom the drain serves. */
    private interface Consumer {
        /** Serves from the queue; returns true once done with. Drain only. */
        boolean serve();

        /** Ends this consumer with {@code error}: the cursor can no longer serve it (M4). */
        void fail(Throwable error);
    }

    /** Waits for a part's first event without taking it. */
    private final class HeadWaiter implements Consumer {
        private final MonoSink<Head> sink;

        HeadWaiter(MonoSink<Head> sink) {
            this.sink = sink;
        }

        @Override
        public void fail(Throwable error) {
            sink.error(error);
        }

        @Override
        public boolean serve() {
            boolean terminated = done; // before the peek: no event can follow a terminal signal
            PartEvent head = queue.peek();
            if (head != null) {
                sink.success(new Head(head));
                return true;
            }
            if (!terminated) {
                return false;
            }
            ended = true; // before the sink completes: the store reads it then
            endEmpty(sink);
            return true;
        }
    }

    /** Releases a part's events through its last. */
    private final class Skip implements Consumer {
        private final MonoSink<Void> sink;

        Skip(MonoSink<Void> sink) {
            this.sink = sink;
        }

        @Override
        public void fail(Throwable error) {
            sink.error(error);
        }

        @Override
        public boolean serve() {
            for (; ; ) {
                boolean terminated = done;
                PartEvent event = take();
                if (event == null) {
                    if (!terminated) {
                        return false;
                    }
                    endEmpty(sink);
                    return true;
                }
                release(event);
                if (event.isLast()) {
                    sink.success();
                    return true;
                }
            }
        }
    }

    /** A part's contents to its one subscriber, as it requests them. */
    private final class PartSubscription implements Consumer, Subscription {
        private final Subscriber<? super DataBuffer> subscriber;
        private final AtomicLong requested = new AtomicLong(); // subscriber -> drain, capped at Long.MAX_VALUE
        private volatile boolean cancelledPart; // subscriber -> drain
        private volatile IllegalArgumentException refused; // subscriber -> drain: §3.9
        private long delivered; // drain-confined

        PartSubscription(Subscriber<? super DataBuffer> subscriber) {
            this.subscriber = subscriber;
        }

        /** The subscriber that broke §2.13 gets no further signal (§2.13: its subscription is cancelled). */
        @Override
        public void fail(Throwable error) {
            cancelledPart = true;
        }

        @Override
        public void request(long n) {
            if (n <= 0) {
                refused = new IllegalArgumentException("§3.9: request(" + n + "): n must be positive");
            } else {
                requested.accumulateAndGet(
                        n, (current, increment) -> current + increment < 0 ? Long.MAX_VALUE : current + increment);
            }
            drain.signal();
        }

        /** Stops the deliveries; the events left stay the cursor's, released when the store ends it. */
        @Override
        public void cancel() {
            cancelledPart = true;
            drain.signal();
        }

        @Override
        public boolean serve() {
            for (; ; ) {
                if (cancelledPart) {
                    return true;
                }
                if (refused != null) {
                    subscriber.onError(refused);
                    return true;
                }
                boolean terminated = done;
                PartEvent event = delivered != requested.get() ? take() : null;
                if (event == null) {
                    if (!terminated || !queue.isEmpty()) {
                        return false;
                    }
                    if (error != null) {
                        subscriber.onError(error);
                    } else {
                        subscriber.onComplete(); // the upstream ended mid-part: the part ends there
                    }
                    return true;
                }
                delivered++;
                subscriber.onNext(event.content());
                if (event.isLast()) {
                    subscriber.onComplete();
                    return true;
                }
            }
        }
    }
}
