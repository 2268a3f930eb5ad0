package io.sluice.tck.write;

import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import org.reactivestreams.tck.SubscriberWhiteboxVerification.SubscriberPuppet;
import org.reactivestreams.tck.SubscriberWhiteboxVerification.WhiteboxSubscriberProbe;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The whitebox view of a writer: signals go to the writer unchanged; the probe hears of them
 * after the writer took them, and of the end of the write from the writer's own stage:
 * {@code registerOnComplete} once the bytes are written and the target closed,
 * {@code registerOnError} once the write failed with exactly the upstream's error.
 *
 * <p>The puppet: {@code signalCancel} cancels the stage, as users cancel a write (the writer then
 * cancels its upstream from its drain, W1). {@code triggerRequest} does nothing: a writer asks for
 * data on its own, from its drain, as its demand strategy decides (W1, W3), and has no way for
 * anyone else to add demand; the TCK's whitebox tests then check the requests it makes by itself.
 */
final class ProbedWriter implements Subscriber<ByteBuffer> {

    private final Subscriber<ByteBuffer> writer;
    private final CompletableFuture<Long> result;
    private final WhiteboxSubscriberProbe<ByteBuffer> probe;
    private final AtomicBoolean registered = new AtomicBoolean();
    private final AtomicReference<Throwable> upstreamError = new AtomicReference<>();
    private final String description;

    ProbedWriter(Write write, WhiteboxSubscriberProbe<ByteBuffer> probe, String description) {
        this(write.subscriber(), write.result(), probe, description);
    }

    ProbedWriter(
            Subscriber<ByteBuffer> writer,
            CompletableFuture<Long> result,
            WhiteboxSubscriberProbe<ByteBuffer> probe,
            String description) {
        this.writer = writer;
        this.result = result;
        this.probe = probe;
        this.description = description;
        result.whenComplete((bytes, failure) -> {
            if (failure == null) {
                probe.registerOnComplete();
            } else if (failure == upstreamError.get()) {
                probe.registerOnError(failure);
            } // else: cancelled by the puppet, or failed itself
        });
    }

    @Override
    public void onSubscribe(Subscription subscription) {
        writer.onSubscribe(subscription);
        if (registered.compareAndSet(false, true)) {
            probe.registerOnSubscribe(new Puppet());
        }
    }

    @Override
    public void onNext(ByteBuffer item) {
        writer.onNext(item);
        probe.registerOnNext(item);
    }

    @Override
    public void onError(Throwable error) {
        upstreamError.compareAndSet(null, error);
        writer.onError(error);
    }

    @Override
    public void onComplete() {
        writer.onComplete();
    }

    @Override
    public String toString() {
        return description;
    }

    private final class Puppet implements SubscriberPuppet {
        @Override
        public void triggerRequest(long elements) {
            // the writer's demand strategy decides; see the class comment
        }

        @Override
        public void signalCancel() {
            result.cancel(true);
        }
    }
}
