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
import java.util.ArrayDeque;
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
 *       it, once. Once, because operators discard what they no longer own but did emit: a
 *       {@code concatMap} discards its scalar when cancelled, after emitting it, and a
 *       {@code publishOn} after it may hold and discard it again. So the hook releases only a buffer
 *       the writer does not hold (it gives those back itself, L1) and that was not released
 *       already, by the writer or the hook: both sides record what they release, the last
 *       {@code REMEMBERED_RELEASES} of them, under one lock. An element an operator loses without
 *       discarding it (Reactor's own races between a cancel and its drain)
 *       reaches no hook.</li>
 * </ul>
 *
 * <p>The source is subscribed with the write's subscriber's context, the hook added, so that what
 * the source reads from the context ({@code deferContextual}, {@code contextWrite} downstream of
 * it) is there as with Spring's {@code DataBufferUtils.write}.
 */
final class LendingPublisher implements Publisher<ByteBuffer> {

    private static final Log LOG = LogFactory.getLog(LendingPublisher.class);
    /**
     * How many released buffers a write remembers (L4): an operator discards a buffer already
     * released (one it had emitted, or discarded before) only within one cancel's cascade (a
     * {@code concatMap}'s scalar, then the queue of a {@code publishOn} after it, whose default
     * prefetch is 256), so a long write does not make the set grow with it.
     */
    private static final int REMEMBERED_RELEASES = 1024;

    private final Publisher<? extends DataBuffer> source;
    private final ContextView context;

    /** {@code context}: the write's subscriber's, which the source's operators see (L4). */
    LendingPublisher(Publisher<? extends DataBuffer> source, ContextView context) {
        this.source = source;
        this.context = context;
    }

    @Override
    public void subscribe(Subscriber<? super ByteBuffer> subscriber) {
        Objects.requireNonNull(subscriber, "subscriber"); // §1.9
        // A CoreSubscriber: Reactor gives a plain Subscriber an empty context, so no discard hook.
        source.subscribe(new Lending(subscriber, context));
    }

    /** Lends {@code buffer}'s readable bytes; the view's give-back runs {@code release} (L1, L2). */
    static ByteBuffer lend(DataBuffer buffer, Runnable release) {
        ByteBuffer bytes;
        try (DataBuffer.ByteBufferIterator views = buffer.readableByteBuffers()) {
            ByteBuffer first = views.hasNext() ? views.next() : ByteBuffer.allocate(0);
            if (views.hasNext()) {
                bytes = ByteBuffer.allocate(buffer.readableByteCount()); // L2: a composite
                buffer.toByteBuffer(buffer.readPosition(), bytes, 0, bytes.capacity());
            } else {
                bytes = first;
            }
        }
        return ChunkPool.lend(bytes, release);
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
        private final Context context; // the write's subscriber's, with the hook (L4)
        private final Object releases =
                new Object(); // guards the two below: the writer's drain and the hook meet here (L4)
        private final Set<DataBuffer> held = // guarded by releases: lent to the writer, not yet given back
                Collections.newSetFromMap(new IdentityHashMap<>());
        private final Set<DataBuffer> released = // guarded by releases: the last ones released, by either side
                Collections.newSetFromMap(new IdentityHashMap<>());
        private final ArrayDeque<DataBuffer> releaseOrder = new ArrayDeque<>(); // guarded by releases: oldest first
        private Subscription upstream; // set in onSubscribe, before any other signal
        private boolean failed; // upstream's signal thread: L1's exception was sent

        Lending(Subscriber<? super ByteBuffer> downstream, ContextView context) {
            this.downstream = downstream;
            this.context = Operators.enableOnDiscard(Context.of(context), this::discarded);
        }

        @Override
        public Context currentContext() {
            return context;
        }

        /**
         * Reactor's discard hook for the source's operators: releases a dropped buffer unless the
         * writer holds it (it gives it back itself) or it was released already (L4).
         */
        private void discarded(Object dropped) {
            if (dropped instanceof DataBuffer buffer) {
                boolean ours;
                synchronized (releases) {
                    ours = !held.contains(buffer) && remembered(buffer);
                }
                if (ours) {
                    release(buffer);
                }
            } else if (dropped instanceof Collection<?> several) {
                several.forEach(this::discarded); // buffer()'s lists, dropped from a queue whole
            }
        }

        /** The writer gave back {@code buffer}'s bytes (L1): released once, whatever an operator discards later. */
        private void givenBack(DataBuffer buffer) {
            boolean first;
            synchronized (releases) {
                held.remove(buffer);
                first = remembered(buffer);
            }
            if (first) {
                release(buffer);
            }
        }

        /** Under {@code releases}: records a release; false if {@code buffer} was released already. */
        private boolean remembered(DataBuffer buffer) {
            if (!released.add(buffer)) {
                return false;
            }
            releaseOrder.addLast(buffer);
            if (releaseOrder.size() > REMEMBERED_RELEASES) {
                released.remove(releaseOrder.removeFirst());
            }
            return true;
        }

        @Override
        public void onSubscribe(Subscription subscription) {
            upstream = subscription;
            downstream.onSubscribe(this);
        }

        @Override
        public void onNext(DataBuffer buffer) {
            if (failed) {
                givenBack(buffer); // L3: late, after our own onError; L4: recorded
                return;
            }
            ByteBuffer view;
            synchronized (releases) {
                held.add(buffer); // L4: from here on the writer's to give back
            }
            try {
                view = lend(buffer, () -> givenBack(buffer));
            } catch (RuntimeException e) {
                synchronized (releases) {
                    held.remove(buffer);
                    remembered(buffer);
                }
                DataBufferUtils.release(buffer); // L1: never lent, so ours to release
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
