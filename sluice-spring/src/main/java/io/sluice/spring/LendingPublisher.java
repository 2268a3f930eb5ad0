package io.sluice.spring;

import io.sluice.ChunkPool;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Objects;
import java.util.Set;

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
 *   <li>L4: a buffer the source's own operators drop (what {@code publishOn}, {@code buffer},
 *       {@code flatMap}, {@code onBackpressureBuffer} hold in their queues when the write is
 *       cancelled or fails, what {@code filter} rejects) never reaches this subscriber, so L1 cannot
 *       release it: Reactor hands it to the discard hook in this subscriber's context, which releases
 *       it, once. Two exceptions keep that once: the buffer this subscriber received last is the
 *       writer's (L1), though {@code concatMap} discards the scalar it has already emitted when
 *       cancelled; and a buffer discarded twice (that same scalar, still in a {@code publishOn}
 *       queue downstream of the {@code concatMap}) is released the first time only, so the hook
 *       remembers what it released until the write's subscription is garbage. An element an
 *       operator loses without discarding it (Reactor's own races between a cancel and its drain)
 *       reaches no hook.</li>
 * </ul>
 *
 * <p>The source is subscribed with the write's subscriber's context, the hook added, so that what
 * the source reads from the context ({@code deferContextual}, {@code contextWrite} downstream of
 * it) is there as with Spring's {@code DataBufferUtils.write}.
 */
final class LendingPublisher implements Publisher<ByteBuffer> {

    private static final Log LOG = LogFactory.getLog(LendingPublisher.class);

    private final Publisher<? extends DataBuffer> source;
    private final ContextView context;

    /** {@code context}: the write's subscriber's, which the source's operators see (L4). */
    LendingPublisher(Publisher<? extends DataBuffer> source, ContextView context) {
        this.source = source;
        this.context = context;
    }

    @Override
    public void subscribe(Subscriber<? super ByteBuffer> subscriber) {
        Objects.requireNonNull(subscriber, "subscriber");   // §1.9
        // A CoreSubscriber: Reactor gives a plain Subscriber an empty context, so no discard hook.
        source.subscribe(new Lending(subscriber, context));
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

    /**
     * Runs on the writer's drain (see {@link ChunkPool#lend}) or in an operator's discard (L4): must
     * not throw.
     */
    private static void release(DataBuffer buffer) {
        try {
            DataBufferUtils.release(buffer);
        } catch (RuntimeException e) {
            LOG.warn("Releasing " + buffer + " failed", e);
        }
    }

    /**
     * Between the user's publisher and the writer; every Subscriber and Subscription method is
     * called serially (L3); {@link #discarded} is called by whichever thread an operator drops a
     * buffer on (L4).
     */
    private static final class Lending implements CoreSubscriber<DataBuffer>, Subscription {

        private final Subscriber<? super ByteBuffer> downstream;
        private final Context context;             // the write's subscriber's, with the hook (L4)
        private final Set<DataBuffer> discarded =  // any thread, guarded by itself: released by the hook (L4)
                Collections.newSetFromMap(new IdentityHashMap<>());
        private Subscription upstream;             // set in onSubscribe, before any other signal
        private boolean failed;                    // upstream's signal thread: L1's exception was sent
        private volatile DataBuffer lastReceived;  // upstream's signal thread -> hook: the writer's (L4)

        Lending(Subscriber<? super ByteBuffer> downstream, ContextView context) {
            this.downstream = downstream;
            this.context = Operators.enableOnDiscard(Context.of(context), this::discarded);
        }

        @Override
        public Context currentContext() {
            return context;
        }

        /** Reactor's discard hook for the source's operators: releases a dropped buffer once (L4). */
        private void discarded(Object dropped) {
            if (dropped instanceof DataBuffer buffer) {
                if (buffer == lastReceived) {
                    return;                         // L4: the writer's, given back by it
                }
                boolean first;
                synchronized (discarded) {
                    first = discarded.add(buffer);
                }
                if (first) {
                    release(buffer);
                }
            } else if (dropped instanceof Collection<?> several) {
                several.forEach(this::discarded);   // buffer()'s lists, dropped from a queue whole
            }
        }

        @Override
        public void onSubscribe(Subscription subscription) {
            upstream = subscription;
            downstream.onSubscribe(this);
        }

        @Override
        public void onNext(DataBuffer buffer) {
            lastReceived = buffer;
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
