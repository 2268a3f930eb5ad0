package io.sluice.spring;

import io.sluice.internal.SerialDrain;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import org.springframework.core.codec.DecodingException;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.MediaType;
import org.springframework.http.ReactiveHttpInputMessage;
import org.springframework.http.codec.multipart.PartEvent;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import reactor.util.context.Context;

import java.util.ArrayDeque;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A multipart body's {@link PartEvent}s, parsed by a {@link MultipartParser} as they are requested:
 * one body buffer is asked for when the events of the last one are all delivered and the downstream
 * wants more, so at most one buffer's events are ever in hand. The form completes at its close
 * delimiter, which cancels the body (the epilogue is not read); an error of the body, a malformed
 * body or a limit exceeded fails it after the events parsed before.
 *
 * <p>Why a drain and not a Reactor operator chain: an operator that is handed an event after it was
 * cancelled gives it to the context's discard hook, and discard hooks add up. {@link PartCursor}
 * already installs one that releases what the form's operators drop, so a hook of the parser's
 * would release such an event a second time, and without one it would leak when used alone. Here
 * no operator stands between the parser and its subscriber: each event is delivered or released
 * by the drain, once.
 *
 * <p>Invariants:
 * <ul>
 *   <li>N1: every body buffer received is released exactly once: the parser releases each buffer
 *       it is given (what it split off is in events); a buffer that arrives after the events
 *       ended (cancel, error, completion, a failed pass) is released by the drain, or by
 *       {@link Parse#onNext} itself once no drain will run (N4).</li>
 *   <li>N2: every event made is delivered or released exactly once: it waits in {@code ready},
 *       drain-confined, until the downstream's demand takes it, and the drain releases what is
 *       left when the events end early.</li>
 *   <li>N3: the drain alone signals the downstream and requests from or cancels the body, so its
 *       signals are serial (§1.3) and its requests too (§2.7); one buffer is requested at a time,
 *       only while the downstream has unmet demand and nothing is ready (§1.1).</li>
 *   <li>N4: a pass that throws (a downstream breaking §2.13) ends the events as a cancel would, in
 *       {@code passFailed}; the drain stays held ({@link SerialDrain} D4), so from then on a buffer
 *       is released by {@link Parse#onNext} on arrival, checked after it is queued.</li>
 * </ul>
 */
final class MultipartPublisher implements Publisher<PartEvent> {

    private static final Log LOG = LogFactory.getLog(MultipartPublisher.class);

    private final Publisher<DataBuffer> body;
    private final byte[] boundary;
    private final MultipartLimits limits;

    private MultipartPublisher(Publisher<DataBuffer> body, byte[] boundary, MultipartLimits limits) {
        this.body = body;
        this.boundary = boundary;
        this.limits = limits;
    }

    /**
     * The events of {@code message}'s multipart body; fails with a {@link DecodingException}, without
     * reading the body, if its Content-Type has no boundary or an empty one.
     */
    static Flux<PartEvent> read(ReactiveHttpInputMessage message, MultipartLimits limits) {
        return Flux.defer(() -> {
            byte[] boundary = boundary(message.getHeaders().getContentType(), limits);
            if (boundary == null) {
                return Flux.error(new DecodingException("No multipart boundary found in Content-Type: \""
                        + message.getHeaders().getContentType() + "\""));
            }
            return Flux.from(new MultipartPublisher(message.getBody(), boundary, limits));
        });
    }

    /** The boundary parameter's bytes, unquoted; null when it is missing or empty. */
    private static byte[] boundary(MediaType type, MultipartLimits limits) {
        String boundary = type != null ? type.getParameter("boundary") : null;
        if (boundary == null) {
            return null;
        }
        int length = boundary.length();
        if (length > 2 && boundary.charAt(0) == '"' && boundary.charAt(length - 1) == '"') {
            boundary = boundary.substring(1, length - 1);
        }
        return boundary.isEmpty() || boundary.equals("\"\"") ? null : boundary.getBytes(limits.headersCharset());
    }

    @Override
    public void subscribe(Subscriber<? super PartEvent> subscriber) {
        Objects.requireNonNull(subscriber, "§1.9: subscriber must not be null");
        Context context = subscriber instanceof CoreSubscriber<?> core ? core.currentContext() : Context.empty();
        Parse parse = new Parse(subscriber, context, new MultipartParser(boundary, limits));
        subscriber.onSubscribe(parse);
        body.subscribe(parse); // after onSubscribe returned: no buffer before it
    }

    /** One subscriber's parse: the body's subscriber and the events' subscription. */
    private static final class Parse implements CoreSubscriber<DataBuffer>, Subscription {
        private final Subscriber<? super PartEvent> downstream;
        private final Context context; // the downstream's, for the body's operators
        private final MultipartParser parser; // drain-confined
        private final Queue<DataBuffer> arrived = new ConcurrentLinkedQueue<>(); // body -> drain (N1)
        private final AtomicLong requested = new AtomicLong(); // downstream -> drain, capped at Long.MAX_VALUE
        private final SerialDrain drain = SerialDrain.of(Runnable::run, this::pass, this::passFailed, false);
        private final Queue<PartEvent> ready = new ArrayDeque<>(); // drain-confined: parsed, not delivered (N2)
        private volatile Subscription upstream; // set once by onSubscribe, then used by the drain only
        private volatile Throwable upstreamError; // written before upstreamDone, read after it
        private volatile boolean upstreamDone; // body -> drain: onComplete or onError arrived
        private volatile boolean cancelled; // downstream -> drain
        private volatile IllegalArgumentException refused; // downstream -> drain: §3.9
        private volatile boolean failed; // the failed pass -> body: no drain will run again (N4)
        private RuntimeException failure; // drain-confined: the parse failed; signalled after ready empties
        private long requestedUpstream; // drain-confined: buffers requested so far
        private long taken; // drain-confined: buffers taken from arrived so far
        private boolean upstreamCancelled; // drain-confined
        private boolean terminated; // drain-confined: the downstream had its terminal signal

        Parse(Subscriber<? super PartEvent> downstream, Context context, MultipartParser parser) {
            this.downstream = downstream;
            this.context = context;
            this.parser = parser;
        }

        // ---- the downstream's subscription ----

        @Override
        public void request(long n) {
            if (n <= 0) {
                refused = new IllegalArgumentException("§3.9: request(" + n + "): n must be positive");
            } else {
                requested.accumulateAndGet(n, (current, more) -> current + more < 0 ? Long.MAX_VALUE : current + more);
            }
            drain.signal();
        }

        @Override
        public void cancel() {
            cancelled = true;
            drain.signal();
        }

        // ---- the body's subscriber ----

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
        public void onNext(DataBuffer buffer) {
            Objects.requireNonNull(buffer, "§2.13: onNext buffer");
            arrived.offer(buffer);
            if (failed) {
                releaseArrived(); // N4: no drain will; after the offer, see passFailed
                return;
            }
            drain.signal();
        }

        @Override
        public void onError(Throwable error) {
            upstreamError = Objects.requireNonNull(error, "§2.13: onError throwable");
            upstreamDone = true;
            drain.signal();
        }

        @Override
        public void onComplete() {
            upstreamDone = true;
            drain.signal();
        }

        // ---- the drain ----

        private boolean pass() {
            if (cancelled || refused != null) {
                end();
                if (!terminated && !cancelled) {
                    terminated = true;
                    downstream.onError(refused); // §3.9
                }
                terminated = true;
                return false;
            }
            if (terminated) {
                releaseArrived(); // N1: arrived after the end
                return false;
            }
            for (; ; ) {
                while (!ready.isEmpty() && requested.get() > 0) {
                    requested.getAndUpdate(current -> current == Long.MAX_VALUE ? current : current - 1);
                    downstream.onNext(ready.poll());
                    if (cancelled || refused != null) {
                        return false; // signalled: the next pass ends it
                    }
                }
                if (!ready.isEmpty()) {
                    return false; // until more is requested
                }
                if (failure != null) {
                    terminate(failure);
                    return false;
                }
                if (parser.closed()) {
                    terminate(null); // the epilogue is not read
                    return false;
                }
                boolean done = upstreamDone; // before the poll: a buffer precedes the body's end
                DataBuffer next = arrived.poll();
                if (next != null) {
                    taken++;
                    parse(next);
                    continue;
                }
                if (done) {
                    terminate(upstreamError != null ? upstreamError : ended());
                    return false;
                }
                Subscription subscription = upstream;
                if (subscription != null && requested.get() > 0 && taken == requestedUpstream) {
                    requestedUpstream++;
                    subscription.request(1); // N3; a synchronous onNext signals one more pass
                }
                return false;
            }
        }

        /** Parses one buffer; a malformed body or a limit exceeded is kept for after the events before it. */
        private void parse(DataBuffer buffer) {
            try {
                parser.parse(buffer, ready);
            } catch (RuntimeException e) {
                failure = e;
                cancelUpstream();
            }
        }

        /** The failure for a body that ended, or null if it ended where it should. */
        private RuntimeException ended() {
            try {
                parser.end();
                return null;
            } catch (RuntimeException e) {
                return e;
            }
        }

        /** Ends the events with {@code error}, or completes them when it is null. */
        private void terminate(Throwable error) {
            terminated = true;
            end();
            if (error != null) {
                downstream.onError(error);
            } else {
                downstream.onComplete();
            }
        }

        /** Cancels the body, unless it ended, and releases what is held (N1, N2). */
        private void end() {
            cancelUpstream();
            for (PartEvent event; (event = ready.poll()) != null; ) {
                release(event);
            }
            releaseArrived();
        }

        private void cancelUpstream() {
            Subscription subscription = upstream;
            if (subscription != null && !upstreamCancelled) {
                upstreamCancelled = true;
                if (!upstreamDone) {
                    subscription.cancel();
                }
            }
        }

        private void releaseArrived() {
            for (DataBuffer buffer; (buffer = arrived.poll()) != null; ) {
                DataBufferUtils.release(buffer);
            }
        }

        /**
         * N4, SerialDrain D4: a pass threw, which only a downstream breaking §2.13 makes it do. The
         * drain stays held, so this ends the parse as a cancel would, and from then on a buffer is
         * released on arrival.
         */
        private void passFailed(Throwable thrown) {
            LOG.warn("The subscriber of a form's events threw; the form is cancelled", thrown);
            failed = true; // before the queue is emptied: see onNext
            cancelled = true;
            try {
                end();
            } catch (RuntimeException e) {
                LOG.warn("Ending a form's parse after its subscriber threw", e);
            }
        }

        private static void release(PartEvent event) {
            try {
                DataBufferUtils.release(event.content());
            } catch (RuntimeException e) {
                LOG.warn("Releasing the content of " + event, e);
            }
        }
    }
}
