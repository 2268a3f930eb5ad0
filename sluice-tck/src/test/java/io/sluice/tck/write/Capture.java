package io.sluice.tck.write;

import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * The publisher handed to a write's entry point: its {@code subscribe} only records the
 * subscriber (no {@code onSubscribe}), which the TCK then drives as the writer's upstream.
 * Either the Reactive Streams face or the {@link #flow() Flow} one is used, once.
 */
final class Capture implements Publisher<ByteBuffer> {

    private volatile Subscriber<ByteBuffer> subscriber; // entry point -> test
    private volatile Flow.Subscriber<ByteBuffer> flowSubscriber; // entry point -> test

    @Override
    @SuppressWarnings("unchecked") // a writer takes any ByteBuffer
    public void subscribe(Subscriber<? super ByteBuffer> subscriber) {
        this.subscriber = (Subscriber<ByteBuffer>) subscriber;
    }

    @SuppressWarnings("unchecked")
    Flow.Publisher<ByteBuffer> flow() {
        return subscriber -> this.flowSubscriber = (Flow.Subscriber<ByteBuffer>) subscriber;
    }

    /** The write the entry point started: the subscriber it subscribed (checked) and its stage. */
    Write write(CompletionStage<Long> stage) {
        if (subscriber == null && flowSubscriber == null) {
            throw new AssertionError("the entry point returned without subscribing to its publisher");
        }
        if (!(stage instanceof CompletableFuture)) {
            throw new AssertionError("the entry point's stage cannot be cancelled: " + stage.getClass());
        }
        Object writer = subscriber != null ? subscriber : flowSubscriber;
        return new Write(subscriber, flowSubscriber, (CompletableFuture<Long>) stage, writer.toString());
    }
}
