package io.sluice;

import org.reactivestreams.FlowAdapters;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;

import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.concurrent.Flow;

/**
 * A publisher of byte chunks that is at once an {@code org.reactivestreams.Publisher} and a
 * {@link java.util.concurrent.Flow.Publisher}: {@code Flux.from(p)}, {@code Flowable.fromPublisher(p)}
 * and {@code HttpRequest.BodyPublishers.fromPublisher(p)} all take it without adapters.
 *
 * <p><b>Threading:</b> {@code subscribe} may be called from any thread; {@code onSubscribe} is
 * signalled on the subscribing thread, every other signal on the publisher's executor, never
 * concurrently (§1.3).
 *
 * <p><b>Backpressure:</b> reads happen only against demand: one chunk per item requested, no
 * read-ahead.
 *
 * <p><b>Resources:</b> nothing is opened before the first {@code request(n)}; the source is closed
 * before {@code onComplete}/{@code onError}, and promptly after {@code cancel()}, even while a
 * read is blocked on a silent peer (a socket, pipe or stream is closed by the cancelling thread).
 * A channel or stream handed to a single-use publisher belongs to the library from then on: it is
 * closed however its one read ends, even before the first request.
 *
 * <p><b>Errors:</b> open and read failures arrive as {@code onError} with the original
 * {@link java.io.IOException}; {@code request(n <= 0)} as {@link IllegalArgumentException} (§3.9).
 */
public interface BytePublisher extends Publisher<ByteBuffer>, Flow.Publisher<ByteBuffer> {

    @Override
    void subscribe(Subscriber<? super ByteBuffer> subscriber);

    /** Subscribes a {@link Flow.Subscriber}, through {@link FlowAdapters}. */
    @Override
    default void subscribe(Flow.Subscriber<? super ByteBuffer> subscriber) {
        Objects.requireNonNull(subscriber, "§1.9: subscriber must not be null");
        subscribe(FlowAdapters.toSubscriber(subscriber));
    }
}
