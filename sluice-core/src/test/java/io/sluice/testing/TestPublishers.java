package io.sluice.testing;

import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/** Upstream publishers for writer tests. */
public final class TestPublishers {

    private TestPublishers() {}

    /**
     * Emits {@code content} in items of {@code itemSize} (fresh buffers), synchronously inside
     * {@code request}, honouring demand; records requests and cancellation.
     */
    public static Recording chunks(byte[] content, int itemSize) {
        return new Recording(content, itemSize, -1, null, false);
    }

    /** Like {@link #chunks} but fails with {@code error} instead of sending item {@code failAt}. */
    public static Recording failingAt(byte[] content, int itemSize, int failAt, Throwable error) {
        return new Recording(content, itemSize, failAt, error, false);
    }

    /**
     * Sends every item on the first request, whatever was requested (violates §1.1), and then
     * neither completes nor fails: only a cancel ends it.
     */
    public static Recording ignoringDemand(byte[] content, int itemSize) {
        return new Recording(content, itemSize, -1, null, true);
    }

    /** A recording publisher; single subscriber. */
    public static final class Recording implements Publisher<ByteBuffer> {
        private final byte[] content;
        private final int itemSize;
        private final int failAt;
        private final Throwable error;
        private final boolean ignoreDemand;
        public final AtomicLong requested = new AtomicLong();
        public final AtomicLong requestCalls = new AtomicLong();
        public final AtomicBoolean cancelled = new AtomicBoolean();
        public final AtomicReference<String> concurrentCall = new AtomicReference<>();

        Recording(byte[] content, int itemSize, int failAt, Throwable error, boolean ignoreDemand) {
            this.content = content;
            this.itemSize = itemSize;
            this.failAt = failAt;
            this.error = error;
            this.ignoreDemand = ignoreDemand;
        }

        @Override
        public void subscribe(Subscriber<? super ByteBuffer> subscriber) {
            subscriber.onSubscribe(new Subscription() {
                private final AtomicReference<Thread> owner = new AtomicReference<>();
                private int depth;
                private long demand;
                private int offset;
                private int sent;
                private boolean emitting;
                private boolean done;

                @Override
                public void request(long n) {
                    enter("request");
                    try {
                        requested.addAndGet(n);
                        requestCalls.incrementAndGet();
                        demand = ignoreDemand ? Long.MAX_VALUE : saturatingAdd(demand, n);
                        if (emitting) {
                            return; // §3.3: no unbounded recursion
                        }
                        emitting = true;
                        while (demand > 0 && !done && !cancelled.get()) {
                            if (sent == failAt) {
                                done = true;
                                subscriber.onError(error);
                                return;
                            }
                            if (offset >= content.length) {
                                if (ignoreDemand) {
                                    return; // stays open until cancelled
                                }
                                done = true;
                                subscriber.onComplete();
                                return;
                            }
                            int size = Math.min(itemSize, content.length - offset);
                            ByteBuffer item = ByteBuffer.allocate(size);
                            item.put(content, offset, size).flip();
                            offset += size;
                            sent++;
                            demand--;
                            subscriber.onNext(item);
                        }
                        if (!done && offset >= content.length && failAt < 0 && !ignoreDemand && !cancelled.get()) {
                            done = true;
                            subscriber.onComplete();
                        }
                        emitting = false;
                    } finally {
                        leave();
                    }
                }

                @Override
                public void cancel() {
                    enter("cancel");
                    try {
                        cancelled.set(true);
                    } finally {
                        leave();
                    }
                }

                private void enter(String call) {
                    Thread current = Thread.currentThread();
                    Thread previous = owner.get();
                    if (previous == current) {
                        depth++; // reentrant on the same thread: allowed
                        return;
                    }
                    if (!owner.compareAndSet(null, current)) {
                        concurrentCall.compareAndSet(
                                null, call + " overlapped a call from " + previous.getName() + " (§2.7)");
                    }
                    depth = 1;
                }

                private void leave() {
                    if (--depth == 0) {
                        owner.set(null);
                    }
                }
            });
        }

        private static long saturatingAdd(long current, long increment) {
            long sum = current + increment;
            return sum < 0 ? Long.MAX_VALUE : sum;
        }
    }
}
