package io.sluice.server;

import org.eclipse.jetty.io.Content;

import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.concurrent.Flow;

/**
 * A request body as a {@code Flow.Publisher<ByteBuffer>} for sluice's writer, on top of Jetty's
 * {@link Content.Source#asPublisher(Content.Source)}. Each Jetty chunk is copied into a heap buffer
 * inside {@code onNext} (Jetty releases it when {@code onNext} returns, and the writer may queue
 * buffers longer than that), digested, and counted against the upload limit. Empty chunks (Jetty
 * delivers the last one even when empty) are passed on as empty buffers. Demand passes through unchanged: one chunk per item requested.
 * Single use: the request body can be read once.
 */
record RequestBodyPublisher(Content.Source body, long maxBytes, Sha256 sha256) implements Flow.Publisher<ByteBuffer> {

    @Override
    public void subscribe(Flow.Subscriber<? super ByteBuffer> downstream) {
        Objects.requireNonNull(downstream, "§1.9: subscriber must not be null");
        Content.Source.asPublisher(body).subscribe(new ChunkCopier(downstream));
    }

    /** Signals arrive serially from Jetty's publisher (§1.3), so the counters need no atomics. */
    private final class ChunkCopier implements Flow.Subscriber<Content.Chunk>, Flow.Subscription {

        private final Flow.Subscriber<? super ByteBuffer> downstream;
        private Flow.Subscription upstream; // set once in onSubscribe, before downstream sees us
        private long received; // signal-confined
        private boolean terminated; // signal-confined

        ChunkCopier(Flow.Subscriber<? super ByteBuffer> downstream) {
            this.downstream = downstream;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            upstream = subscription;
            downstream.onSubscribe(this);
        }

        @Override
        public void onNext(Content.Chunk chunk) {
            // Jetty's publisher releases the chunk when onNext returns: copy now, never release here.
            ByteBuffer lent = chunk.getByteBuffer();
            ByteBuffer copy = ByteBuffer.allocate(lent.remaining());
            copy.put(lent.duplicate()).flip();
            if (terminated) {
                return;
            }
            received += copy.remaining();
            if (received > maxBytes) {
                terminated = true;
                upstream.cancel();
                downstream.onError(HttpProblem.tooLarge(maxBytes));
                return;
            }
            sha256.update(copy);
            downstream.onNext(copy);
        }

        @Override
        public void onError(Throwable failure) {
            if (!terminated) {
                terminated = true;
                downstream.onError(failure);
            }
        }

        @Override
        public void onComplete() {
            if (!terminated) {
                terminated = true;
                downstream.onComplete();
            }
        }

        @Override
        public void request(long items) {
            upstream.request(items);
        }

        @Override
        public void cancel() {
            upstream.cancel();
        }
    }
}
