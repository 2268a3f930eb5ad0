package io.sluice.s3.internal;

import io.sluice.internal.SluiceTimer;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import software.amazon.awssdk.core.async.AsyncRequestBody;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Bounds the wait for one request's answer: once the request's body has been handed to the client
 * whole (at once for a request without a body of ours), its answer must come within the timeout, or
 * the answer fails with the error given and the SDK's call is cancelled, which closes its connection.
 *
 * <p>Invariants:
 * <ul>
 *   <li>L1 (per attempt): the clock starts when the client has taken the body's last byte, and stops
 *       when the client subscribes to the body again (a retry sends it again), so a slow send or a
 *       retry is never cut short; only the silence after a whole body counts. The last byte is the
 *       one that completes the body's length, or {@code onComplete} if that comes first (a body of
 *       unknown length): the Netty client, once it has written the length it declared, cancels the
 *       body instead of waiting for its {@code onComplete}, which a body then need not send.</li>
 *   <li>L2 (one outcome, after the call): the answer completes once, when the SDK's call has ended: with
 *       its outcome, or, if the clock ran out first, with the timeout's error, the call having been
 *       cancelled to end it. So whoever waits for the answer knows the request is over. Once the call
 *       has ended the clock never starts again (a last byte reported after the answer came starts
 *       nothing).</li>
 *   <li>L3 (threads): the clock runs on core's {@link SluiceTimer}; the timeout's error is signalled on a
 *       {@code sluice-timeout-N} thread (what depends on it may start SDK calls), never on the timer.</li>
 *   <li>L4 (release): once the call has ended, and before the answer completes, the body the client
 *       was given no longer reaches the caller's body: the SDK's Netty client keeps an idle pooled
 *       connection's last request, body included, until the connection is used again, so bytes the
 *       caller drops after the answer (a finished upload's part blocks) are not kept alive by a
 *       connection that no longer reads them. A send after that fails (§1.9).</li>
 * </ul>
 */
final class AnswerDeadline<T> {

    private final CompletableFuture<T> answer = new CompletableFuture<>(); // L2
    private final long timeoutNanos;
    private final Supplier<? extends Throwable> timedOut;
    private CompletableFuture<T> call; // guarded by this: the SDK's call, null until started
    private ScheduledFuture<?> clock; // guarded by this: the running clock, null if stopped (L1)
    private Throwable expired; // guarded by this: the timeout's error once the clock ran out
    private boolean ended; // guarded by this: the call has ended; the clock never starts again (L2)

    private AnswerDeadline(Duration timeout, Supplier<? extends Throwable> timedOut) {
        this.timeoutNanos = saturatedNanos(timeout);
        this.timedOut = timedOut;
    }

    /** Starts a call without a body of ours; its answer must come within {@code timeout} of the start. */
    static <T> CompletableFuture<T> watch(
            Supplier<CompletableFuture<T>> start, Duration timeout, Supplier<? extends Throwable> timedOut) {
        AnswerDeadline<T> deadline = new AnswerDeadline<>(timeout, timedOut);
        deadline.startClock();
        deadline.started(start.get(), null);
        return deadline.answer;
    }

    /** Starts a call with {@code body}; its answer must come within {@code timeout} of the body's last byte (L1). */
    static <T> CompletableFuture<T> watch(
            Function<AsyncRequestBody, CompletableFuture<T>> start,
            AsyncRequestBody body,
            Duration timeout,
            Supplier<? extends Throwable> timedOut) {
        AnswerDeadline<T> deadline = new AnswerDeadline<>(timeout, timedOut);
        AnswerDeadline<T>.WatchedBody watched = deadline.new WatchedBody(body);
        deadline.started(start.apply(watched), watched);
        return deadline.answer;
    }

    /** Completes the answer once {@code sdkCall} has ended, after releasing {@code body}, if any (L2, L4). */
    private void started(CompletableFuture<T> sdkCall, WatchedBody body) {
        Throwable expiredBefore;
        synchronized (this) {
            call = sdkCall;
            expiredBefore = expired;
        }
        sdkCall.whenComplete((value, error) -> {
            if (body != null) {
                body.release(); // L4
            }
            Throwable timeout = end();
            if (timeout != null) {
                answer.completeExceptionally(timeout); // L2: the call was cancelled because the clock ran out
            } else if (error != null) {
                answer.completeExceptionally(error);
            } else {
                answer.complete(value);
            }
        });
        if (expiredBefore != null) {
            sdkCall.cancel(true); // the clock ran out before the call was known
        }
    }

    private synchronized void startClock() {
        if (clock == null && expired == null && !ended) { // a late last byte: the answer may have come already
            clock = SluiceTimer.schedule(() -> SluiceTimer.runMayBlock(this::expire), timeoutNanos); // L3
        }
    }

    /** Stops the clock; returns the timeout's error if it ran out before. */
    private synchronized Throwable stopClock() {
        if (clock != null) {
            clock.cancel(false);
            clock = null;
        }
        return expired;
    }

    /** Stops the clock for good once the call has ended; returns the timeout's error if it ran out before. */
    private synchronized Throwable end() {
        ended = true;
        return stopClock();
    }

    private void expire() {
        CompletableFuture<T> sdkCall;
        synchronized (this) {
            if (clock == null) {
                return; // stopped meanwhile (L1)
            }
            clock = null;
            expired = timedOut.get();
            sdkCall = call;
        }
        if (sdkCall != null) {
            sdkCall.cancel(true); // L2: the SDK closes the connection; its end completes the answer
        }
    }

    private static long saturatedNanos(Duration timeout) {
        try {
            return timeout.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    /**
     * The body as the client sees it, telling the deadline when a send starts and when it has taken
     * every byte, and letting go of the caller's body once the call has ended (L4).
     */
    private final class WatchedBody implements AsyncRequestBody {

        private final Optional<Long> contentLength;
        private final String contentType;
        private volatile AsyncRequestBody body; // the call's end -> client threads: null once released (L4)

        WatchedBody(AsyncRequestBody body) {
            this.body = body;
            this.contentLength = body.contentLength();
            this.contentType = body.contentType();
        }

        void release() {
            body = null;
        }

        @Override
        public Optional<Long> contentLength() {
            return contentLength;
        }

        @Override
        public String contentType() {
            return contentType;
        }

        @Override
        public void subscribe(Subscriber<? super ByteBuffer> subscriber) {
            AsyncRequestBody source = body;
            if (source == null) {
                subscriber.onSubscribe(new Subscription() {
                    @Override
                    public void request(long n) {}

                    @Override
                    public void cancel() {}
                });
                subscriber.onError(new IllegalStateException("the call has ended: its body was released")); // §1.9
                return;
            }
            stopClock(); // L1: a send (again) starts
            long length = contentLength.orElse(-1L);
            source.subscribe(new Subscriber<ByteBuffer>() {
                private long taken; // this send's bytes handed to the client

                @Override
                public void onSubscribe(Subscription subscription) {
                    subscriber.onSubscribe(subscription);
                }

                @Override
                public void onNext(ByteBuffer item) {
                    taken += item.remaining();
                    subscriber.onNext(item);
                    if (taken == length) {
                        startClock(); // L1: the client has the whole body
                    }
                }

                @Override
                public void onError(Throwable error) {
                    subscriber.onError(error);
                }

                @Override
                public void onComplete() {
                    startClock(); // L1: the client has the whole body
                    subscriber.onComplete();
                }
            });
        }
    }
}
