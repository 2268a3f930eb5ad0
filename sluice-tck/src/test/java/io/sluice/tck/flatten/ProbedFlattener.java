package io.sluice.tck.flatten;

import io.sluice.internal.write.BufferFlattener;
import org.reactivestreams.tck.SubscriberWhiteboxVerification.SubscriberPuppet;
import org.reactivestreams.tck.SubscriberWhiteboxVerification.WhiteboxSubscriberProbe;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The whitebox view of {@code BufferFlattener}'s subscriber side: signals go to the flattener
 * unchanged, and the probe hears of each once the flattener took it. The flattener's own
 * subscriber stands for the writer: the puppet's {@code triggerRequest(n)} requests {@code n}
 * buffers from it (each of the TCK's lists holds one, so the flattener asks for lists, one at a
 * time, F1), and {@code signalCancel} cancels it.
 */
final class ProbedFlattener implements Flow.Subscriber<List<ByteBuffer>> {

    private final BufferFlattener flattener = new BufferFlattener();
    private final WhiteboxSubscriberProbe<List<ByteBuffer>> probe;
    private final AtomicBoolean registered = new AtomicBoolean();
    private volatile Flow.Subscription downstream; // the flattener's onSubscribe -> puppet

    ProbedFlattener(WhiteboxSubscriberProbe<List<ByteBuffer>> probe) {
        this.probe = probe;
        flattener.subscribe(new Flow.Subscriber<ByteBuffer>() {
            @Override
            public void onSubscribe(Flow.Subscription subscription) {
                downstream = subscription;
            }

            @Override
            public void onNext(ByteBuffer item) {}

            @Override
            public void onError(Throwable throwable) {}

            @Override
            public void onComplete() {}
        });
    }

    /** The TCK's element {@code index}: a list of one buffer holding {@code index}. */
    static List<ByteBuffer> element(int index) {
        return List.of(ListUpstream.element(index));
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        flattener.onSubscribe(subscription);
        if (registered.compareAndSet(false, true)) {
            probe.registerOnSubscribe(new SubscriberPuppet() {
                @Override
                public void triggerRequest(long elements) {
                    downstream.request(elements);
                }

                @Override
                public void signalCancel() {
                    downstream.cancel();
                }
            });
        }
    }

    @Override
    public void onNext(List<ByteBuffer> list) {
        flattener.onNext(list);
        probe.registerOnNext(list);
    }

    @Override
    public void onError(Throwable error) {
        flattener.onError(error);
        probe.registerOnError(error);
    }

    @Override
    public void onComplete() {
        flattener.onComplete();
        probe.registerOnComplete();
    }
}
