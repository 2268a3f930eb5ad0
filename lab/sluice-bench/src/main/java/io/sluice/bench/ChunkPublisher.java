package io.sluice.bench;

import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The write operations' source: {@code count} fresh 1 KiB chunks ({@link Payload#freshChunk}),
 * each wrapped (zero-copy) into the element type the library under test consumes.
 *
 * <p><b>Threading</b>: emits on the thread that calls {@code request} (a trampolined drain: a
 * {@code request} from inside {@code onNext} adds demand and returns). It never spins or parks
 * while it has no demand: it simply returns, like {@code Flux.generate}.
 *
 * <p><b>Backpressure</b>: never more {@code onNext} than requested (§1.1); {@code request(n <= 0)}
 * signals {@code IllegalArgumentException} (§3.9).
 */
public final class ChunkPublisher<T> implements Publisher<T> {

    private final long count;
    private final Function<ByteBuffer, T> wrap;

    public ChunkPublisher(long count, Function<ByteBuffer, T> wrap) {
        if (count < 0) {
            throw new IllegalArgumentException("count must not be negative, was " + count);
        }
        this.count = count;
        this.wrap = Objects.requireNonNull(wrap, "wrap");
    }

    public static ChunkPublisher<ByteBuffer> of(long count) {
        return new ChunkPublisher<>(count, Function.identity());
    }

    @Override
    public void subscribe(Subscriber<? super T> subscriber) {
        Objects.requireNonNull(subscriber, "subscriber"); // §1.9
        subscriber.onSubscribe(new ChunkSubscription<>(subscriber, count, wrap));
    }

    private static final class ChunkSubscription<T> implements Subscription {
        private final Subscriber<? super T> downstream;
        private final long count;
        private final Function<ByteBuffer, T> wrap;
        private final AtomicLong requested = new AtomicLong(); // any thread -> drain
        private volatile boolean cancelled; // any thread -> drain
        private volatile long invalidRequest = 1; // the first non-positive request; 1: none yet
        private long emitted; // drain-confined

        ChunkSubscription(Subscriber<? super T> downstream, long count, Function<ByteBuffer, T> wrap) {
            this.downstream = downstream;
            this.count = count;
            this.wrap = wrap;
        }

        @Override
        public void request(long n) {
            if (n <= 0 && invalidRequest == 1) {
                invalidRequest = n;
            }
            long add = n <= 0 ? 1 : n; // wake the drain so it can signal the §3.9 error
            if (requested.getAndAccumulate(
                            add, (current, increment) -> current + increment < 0 ? Long.MAX_VALUE : current + increment)
                    == 0) {
                drain();
            }
        }

        /** Runs on exactly one thread at a time: the one whose request raised demand from zero. */
        private void drain() {
            long pending = requested.get();
            while (true) {
                if (invalidRequest < 1) {
                    cancelled = true;
                    downstream.onError(
                            new IllegalArgumentException("§3.9: request must be positive, was " + invalidRequest));
                    return;
                }
                long sent = 0;
                while (sent != pending && emitted < count && !cancelled) {
                    downstream.onNext(wrap.apply(Payload.freshChunk(emitted++)));
                    sent++;
                }
                if (cancelled) {
                    return;
                }
                if (emitted == count) {
                    cancelled = true;
                    downstream.onComplete();
                    return;
                }
                pending = pending == Long.MAX_VALUE ? Long.MAX_VALUE : requested.addAndGet(-sent);
                if (pending == 0) {
                    return;
                }
            }
        }

        @Override
        public void cancel() {
            cancelled = true;
        }
    }
}
