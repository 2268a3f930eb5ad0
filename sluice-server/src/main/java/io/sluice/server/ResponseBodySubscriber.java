package io.sluice.server;

import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.nio.ByteBuffer;
import java.util.concurrent.Flow;

/**
 * Lane C's download end: our file publisher into Jetty's {@link Content.Sink#asSubscriber}, which
 * requests one buffer, writes it to the socket, and requests the next only when the write
 * completed. A slow reader therefore holds one buffer and no thread.
 */
final class ResponseBodySubscriber implements Flow.Subscriber<ByteBuffer> {

    private final Flow.Subscriber<Content.Chunk> sink;

    ResponseBodySubscriber(Response response, Callback callback) {
        this.sink = Content.Sink.asSubscriber(response, callback);
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        sink.onSubscribe(subscription);
    }

    @Override
    public void onNext(ByteBuffer buffer) {
        sink.onNext(Content.Chunk.from(buffer, false));
    }

    @Override
    public void onError(Throwable failure) {
        sink.onError(failure);
    }

    @Override
    public void onComplete() {
        sink.onComplete();
    }
}
