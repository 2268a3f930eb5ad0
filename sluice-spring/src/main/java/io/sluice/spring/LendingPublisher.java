package io.sluice.spring;

import io.sluice.ChunkPool;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A {@code Publisher<DataBuffer>} seen as the {@code Publisher<ByteBuffer>} a sluice writer takes:
 * one item for one, each {@link DataBuffer}'s readable bytes lent with {@link ChunkPool#lend} so
 * that the writer gives them back once they are written, or once the write ends without them, and
 * the buffer is released then, exactly once.
 *
 * <p>Invariants:
 * <ul>
 *   <li>L1: a buffer is released only by the give-back of its view, which the writer does after its
 *       bytes are written or when it drops them: never before, never twice ({@code ChunkPool} takes
 *       a view back once). The one exception: a buffer whose bytes cannot be read (its view throws)
 *       is released at once, and the stream fails with that exception.</li>
 *   <li>L2: a buffer with one readable {@code ByteBuffer} (a heap or direct buffer, a single Netty
 *       buffer) is lent without a copy; one made of several (a composite) is copied into one heap
 *       buffer, lent the same way, and released when the copy is given back.</li>
 *   <li>L3: {@code request} and {@code cancel} pass straight through; signals pass straight through
 *       in order (the upstream is serial, §1.3, so this is too). After this subscriber failed a
 *       buffer (L1), later buffers are released on arrival and later terminal signals dropped
 *       (§2.8: items may still arrive after cancel).</li>
 * </ul>
 */
final class LendingPublisher implements Publisher<ByteBuffer> {

    private static final Log LOG = LogFactory.getLog(LendingPublisher.class);

    private final Publisher<? extends DataBuffer> source;

    LendingPublisher(Publisher<? extends DataBuffer> source) {
        this.source = source;
    }

    @Override
    public void subscribe(Subscriber<? super ByteBuffer> subscriber) {
        Objects.requireNonNull(subscriber, "subscriber");   // §1.9
        source.subscribe(new Lending(subscriber));
    }

    /** Lends {@code buffer}'s readable bytes; the view's give-back releases it (L1, L2). */
    static ByteBuffer lend(DataBuffer buffer) {
        ByteBuffer bytes;
        try (DataBuffer.ByteBufferIterator views = buffer.readableByteBuffers()) {
            ByteBuffer first = views.hasNext() ? views.next() : ByteBuffer.allocate(0);
            if (views.hasNext()) {
                bytes = ByteBuffer.allocate(buffer.readableByteCount());   // L2: a composite
                buffer.toByteBuffer(buffer.readPosition(), bytes, 0, bytes.capacity());
            } else {
                bytes = first;
            }
        }
        return ChunkPool.lend(bytes, () -> release(buffer));
    }

    /** Runs on the writer's drain: must not throw (see {@link ChunkPool#lend}). */
    private static void release(DataBuffer buffer) {
        try {
            DataBufferUtils.release(buffer);
        } catch (RuntimeException e) {
            LOG.warn("Releasing " + buffer + " after its write failed", e);
        }
    }

    /** Between the user's publisher and the writer; every method is called serially (L3). */
    private static final class Lending implements Subscriber<DataBuffer>, Subscription {

        private final Subscriber<? super ByteBuffer> downstream;
        private Subscription upstream;             // set in onSubscribe, before any other signal
        private boolean failed;                    // upstream's signal thread: L1's exception was sent

        Lending(Subscriber<? super ByteBuffer> downstream) {
            this.downstream = downstream;
        }

        @Override
        public void onSubscribe(Subscription subscription) {
            upstream = subscription;
            downstream.onSubscribe(this);
        }

        @Override
        public void onNext(DataBuffer buffer) {
            if (failed) {
                DataBufferUtils.release(buffer);    // L3: late, after our own onError
                return;
            }
            ByteBuffer view;
            try {
                view = lend(buffer);
            } catch (RuntimeException e) {
                DataBufferUtils.release(buffer);    // L1: never lent, so ours to release
                failed = true;
                upstream.cancel();
                downstream.onError(new IllegalArgumentException("cannot read the bytes of " + buffer, e));
                return;
            }
            downstream.onNext(view);
        }

        @Override
        public void onError(Throwable error) {
            if (!failed) {
                downstream.onError(error);
            }
        }

        @Override
        public void onComplete() {
            if (!failed) {
                downstream.onComplete();
            }
        }

        @Override
        public void request(long n) {
            upstream.request(n);
        }

        @Override
        public void cancel() {
            upstream.cancel();
        }
    }
}
