package io.sluice.internal.write;

import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.nio.ByteBuffer;
import java.util.function.LongFunction;

/**
 * A synchronous upstream: {@code request(n)} emits up to {@code n} items on the calling thread before
 * it returns (as {@code Flux.range} or {@code Flux.generate} do), then completes after the last.
 */
final class SyncUpstream implements Subscription {

    private final Subscriber<? super ByteBuffer> downstream;
    private final long items;
    private final LongFunction<ByteBuffer> item;
    private long emitted;
    private boolean emitting;
    private long pending;
    volatile boolean cancelled;
    long requestCalls;

    /**
     * @param items how many items to emit in all
     * @param item the item with the given index (0-based)
     */
    SyncUpstream(Subscriber<? super ByteBuffer> downstream, long items, LongFunction<ByteBuffer> item) {
        this.downstream = downstream;
        this.items = items;
        this.item = item;
    }

    long emitted() {
        return emitted;
    }

    @Override
    public void request(long n) {
        requestCalls++;
        pending = pending + n < 0 ? Long.MAX_VALUE : pending + n;
        if (emitting) {
            return; // §3.3: no recursion; the outer loop emits
        }
        emitting = true;
        try {
            while (pending > 0 && emitted < items && !cancelled) {
                pending--;
                downstream.onNext(item.apply(emitted++));
            }
            if (emitted == items && !cancelled) {
                cancelled = true; // terminal: no further signal
                downstream.onComplete();
            }
        } finally {
            emitting = false;
        }
    }

    @Override
    public void cancel() {
        cancelled = true;
    }
}
