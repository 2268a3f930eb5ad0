package io.sluice.tck.http;

import org.reactivestreams.tck.SubscriberWhiteboxVerification.SubscriberPuppet;
import org.reactivestreams.tck.SubscriberWhiteboxVerification.WhiteboxSubscriberProbe;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The whitebox view of {@code FileBodyHandler}'s body subscriber: signals go to it unchanged; the
 * probe hears of each list after the body took it, and of the end from the body's own stage:
 * {@code registerOnComplete} once the file is written and closed, {@code registerOnError} once
 * the body failed with exactly the upstream's error.
 *
 * <p>The puppet: {@code signalCancel} cancels the body's stage, as a user cancels a download
 * (the writer then cancels the response). {@code triggerRequest} does nothing: the file writer
 * asks for data on its own, and the body passes its demand on one list at a time.
 */
final class ProbedBody implements Flow.Subscriber<List<ByteBuffer>> {

    private final HttpResponse.BodySubscriber<Long> body;
    private final WhiteboxSubscriberProbe<List<ByteBuffer>> probe;
    private final AtomicBoolean registered = new AtomicBoolean();
    private final AtomicReference<Throwable> upstreamError = new AtomicReference<>();

    ProbedBody(HttpResponse.BodySubscriber<Long> body, WhiteboxSubscriberProbe<List<ByteBuffer>> probe) {
        this.body = body;
        this.probe = probe;
        body.getBody().whenComplete((bytes, failure) -> {
            if (failure == null) {
                probe.registerOnComplete();
            } else if (failure == upstreamError.get()) {
                probe.registerOnError(failure);
            } // else: cancelled by the puppet, or failed itself
        });
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        body.onSubscribe(subscription);
        if (registered.compareAndSet(false, true)) {
            probe.registerOnSubscribe(new SubscriberPuppet() {
                @Override
                public void triggerRequest(long elements) {
                    // the writer's demand decides; see the class comment
                }

                @Override
                public void signalCancel() {
                    body.getBody().toCompletableFuture().cancel(true);
                }
            });
        }
    }

    @Override
    public void onNext(List<ByteBuffer> list) {
        body.onNext(list);
        probe.registerOnNext(list);
    }

    @Override
    public void onError(Throwable error) {
        upstreamError.compareAndSet(null, error);
        body.onError(error);
    }

    @Override
    public void onComplete() {
        body.onComplete();
    }
}
