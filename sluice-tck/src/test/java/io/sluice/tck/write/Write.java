package io.sluice.tck.write;

import org.reactivestreams.Subscriber;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/**
 * One write started through a public entry point: the subscriber that entry point subscribed to
 * the publisher it was given (a Reactive Streams one, or a Flow one for the Flow overloads; the
 * other is {@code null}), and the stage it returned.
 */
public final class Write {

    private final Subscriber<ByteBuffer> subscriber;
    private final Flow.Subscriber<ByteBuffer> flowSubscriber;
    private final CompletableFuture<Long> result;
    private final String description;

    Write(
            Subscriber<ByteBuffer> subscriber,
            Flow.Subscriber<ByteBuffer> flowSubscriber,
            CompletableFuture<Long> result,
            String description) {
        this.subscriber = subscriber;
        this.flowSubscriber = flowSubscriber;
        this.result = result;
        this.description = description;
    }

    /** The writer as a Reactive Streams upstream sees it; fails for a write started with a Flow publisher. */
    public Subscriber<ByteBuffer> subscriber() {
        if (subscriber == null) {
            throw new IllegalStateException(description + " was started with a Flow publisher");
        }
        return subscriber;
    }

    /** The writer as a Flow upstream sees it; fails for a write started with a Reactive Streams publisher. */
    public Flow.Subscriber<ByteBuffer> flowSubscriber() {
        if (flowSubscriber == null) {
            throw new IllegalStateException(description + " was started with a Reactive Streams publisher");
        }
        return flowSubscriber;
    }

    /** The entry point's stage, as the user holds it: cancelling it cancels the write. */
    public CompletableFuture<Long> result() {
        return result;
    }

    @Override
    public String toString() {
        return description;
    }
}
