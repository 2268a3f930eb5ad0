package io.sluice.tck.support;

import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;

import java.nio.ByteBuffer;

/**
 * A one-subscriber upstream that emits synchronously inside {@code request}: the subscriber's
 * {@code onNext} (and finally {@code onComplete}) run nested in its own {@code request} call, the
 * hardest case for §2.7 and §3.3. It sends {@code items} buffers of {@code itemBytes}, never more
 * than requested.
 */
public final class SynchronousUpstream implements Publisher<ByteBuffer> {

    private final long items;
    private final int itemBytes;
    private CheckedSubscription subscription;

    public SynchronousUpstream(long items, int itemBytes) {
        this.items = items;
        this.itemBytes = itemBytes;
    }

    @Override
    public void subscribe(Subscriber<? super ByteBuffer> subscriber) {
        Emitter emitter = new Emitter(subscriber);
        subscription = new CheckedSubscription(emitter);
        subscriber.onSubscribe(subscription);
    }

    public CheckedSubscription subscription() {
        return subscription;
    }

    private final class Emitter implements CheckedSubscription.Calls {
        private final Subscriber<? super ByteBuffer> subscriber;
        private long demand; // guarded by §2.7 (what the test checks)
        private long sent;
        private boolean emitting;
        private boolean stopped;

        Emitter(Subscriber<? super ByteBuffer> subscriber) {
            this.subscriber = subscriber;
        }

        @Override
        public void request(long n) {
            if (stopped || n <= 0) {
                return;
            }
            demand = demand + n < 0 ? Long.MAX_VALUE : demand + n;
            if (emitting) {
                return; // §3.3: the outer loop sends it
            }
            emitting = true;
            while (demand > 0 && sent < items && !stopped) {
                demand--;
                sent++;
                subscriber.onNext(ByteBuffer.allocate(itemBytes));
            }
            emitting = false;
            if (sent == items && !stopped) {
                stopped = true;
                subscriber.onComplete();
            }
        }

        @Override
        public void cancel() {
            stopped = true;
        }
    }
}
