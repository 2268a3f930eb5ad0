package io.sluice.bench.providers;

import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.streams.ReadStream;
import io.vertx.ext.reactivestreams.ReactiveReadStream;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Vert.x's {@link ReactiveReadStream} with an end that waits for its last buffer: the read stream
 * ends its consumer at {@code onComplete} even while buffers it received when paused still wait in
 * its queue, which would cut a copy short. This subscriber counts the buffers it passes in and the
 * ones the consumer's handler was given, and ends the consumer once both the publisher has
 * completed and the counts meet.
 *
 * <p>Threading: signals come from the publisher's context, handler calls from the consumer's; the
 * counts are atomics and the end runs once ({@link #ended}).
 */
final class CountedBridge implements Subscriber<Buffer>, ReadStream<Buffer> {

    private final ReactiveReadStream<Buffer> bridge = ReactiveReadStream.readStream();
    private final AtomicLong received = new AtomicLong(); // buffers passed to the bridge; publisher's context
    private final AtomicLong handled = new AtomicLong(); // buffers given to the consumer; any thread
    private final AtomicBoolean completed = new AtomicBoolean(); // the publisher completed
    private final AtomicBoolean ended = new AtomicBoolean(); // the consumer's end handler has run
    private volatile Handler<Void> endHandler; // set by the consumer before the copy starts

    @Override
    public void onSubscribe(Subscription subscription) {
        bridge.onSubscribe(subscription);
    }

    @Override
    public void onNext(Buffer buffer) {
        received.incrementAndGet();
        bridge.onNext(buffer);
    }

    @Override
    public void onError(Throwable error) {
        bridge.onError(error);
    }

    @Override
    public void onComplete() {
        bridge.onComplete();
    }

    @Override
    public ReadStream<Buffer> handler(Handler<Buffer> handler) {
        bridge.handler(
                handler == null
                        ? null
                        : buffer -> {
                            handler.handle(buffer);
                            handled.incrementAndGet();
                            endOnceHandled();
                        });
        return this;
    }

    @Override
    public ReadStream<Buffer> endHandler(Handler<Void> handler) {
        endHandler = handler;
        bridge.endHandler(
                handler == null
                        ? null
                        : ignored -> {
                            completed.set(true);
                            endOnceHandled();
                        });
        return this;
    }

    private void endOnceHandled() {
        if (completed.get() && handled.get() == received.get() && ended.compareAndSet(false, true)) {
            endHandler.handle(null);
        }
    }

    @Override
    public ReadStream<Buffer> exceptionHandler(Handler<Throwable> handler) {
        bridge.exceptionHandler(handler);
        return this;
    }

    @Override
    public ReadStream<Buffer> pause() {
        bridge.pause();
        return this;
    }

    @Override
    public ReadStream<Buffer> resume() {
        bridge.resume();
        return this;
    }

    @Override
    public ReadStream<Buffer> fetch(long amount) {
        bridge.fetch(amount);
        return this;
    }
}
