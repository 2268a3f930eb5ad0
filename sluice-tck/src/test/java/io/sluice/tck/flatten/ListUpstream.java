package io.sluice.tck.flatten;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A one-subscriber upstream of lists, as the {@code HttpClient} publishes a body: {@code elements}
 * buffers in lists of 1, 2, 3, 1, 2, 3, ... buffers (the last one cut to fit), one list per
 * requested item, then {@code onComplete}. It emits on the requesting thread, nested in
 * {@code request} (the hardest case for the flattener's drain, §3.3), one emitter at a time.
 */
final class ListUpstream implements Flow.Publisher<List<ByteBuffer>> {

    private final long elements;
    private final AtomicLong demand = new AtomicLong(); // request -> emitter
    private final AtomicInteger wip = new AtomicInteger(); // any thread -> emitter
    private volatile boolean cancelled; // cancel -> emitter
    private volatile Flow.Subscriber<? super List<ByteBuffer>> subscriber; // subscribe, once -> emitter
    private long sent; // emitter only
    private int lists; // emitter only
    private boolean done; // emitter only

    ListUpstream(long elements) {
        this.elements = elements;
    }

    /** Element {@code index} of a flattened stream: the 4 bytes of {@code (int) index}, big-endian. */
    static ByteBuffer element(long index) {
        return ByteBuffer.allocate(Integer.BYTES).putInt(0, (int) index);
    }

    @Override
    public void subscribe(Flow.Subscriber<? super List<ByteBuffer>> subscriber) {
        this.subscriber = subscriber;
        subscriber.onSubscribe(new Flow.Subscription() {
            @Override
            public void request(long n) {
                if (n > 0) {
                    demand.accumulateAndGet(n, (current, more) -> current + more < 0 ? Long.MAX_VALUE : current + more);
                }
                emit();
            }

            @Override
            public void cancel() {
                cancelled = true;
            }
        });
        emit(); // an empty stream completes at once
    }

    private void emit() {
        if (wip.getAndIncrement() != 0) {
            return;
        }
        int missed = 1;
        do {
            while (!cancelled && sent < elements && demand.get() > 0) {
                demand.decrementAndGet();
                int size = (int) Math.min(lists++ % 3 + 1, elements - sent);
                List<ByteBuffer> list = new ArrayList<>(size);
                for (int i = 0; i < size; i++) {
                    list.add(element(sent++));
                }
                subscriber.onNext(list);
            }
            if (!cancelled && !done && sent == elements) {
                done = true;
                subscriber.onComplete();
            }
            missed = wip.addAndGet(-missed);
        } while (missed != 0);
    }
}
