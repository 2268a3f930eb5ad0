package io.sluice.internal.write;

import io.sluice.internal.SerialDrain;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A single-use processor from {@code List<ByteBuffer>} (what the JDK {@code HttpClient} publishes)
 * to {@code ByteBuffer} (what sluice's writers take).
 *
 * <p>Invariants:
 * <ul>
 *   <li>F1: at most one list is requested from upstream at a time, and only when the downstream
 *       has unmet demand and no buffer is left: nothing is read ahead beyond one list.</li>
 *   <li>F2: every signal to the downstream and every {@code request}/{@code cancel} on the upstream
 *       is issued from the drain, a {@link SerialDrain} run on the signalling thread, one thread at
 *       a time (§1.3, §2.7).</li>
 *   <li>F3: the downstream receives at most as many buffers as it requested (§1.1), and exactly one
 *       terminal signal, after the last buffer (§1.7).</li>
 *   <li>F4: the drain reads {@code upstreamDone} and {@code listOutstanding} before it looks at the
 *       queue ("done, then empty"), so a list arriving during a pass is never taken for absent.</li>
 * </ul>
 */
public final class BufferFlattener implements Flow.Processor<List<ByteBuffer>, ByteBuffer>, Flow.Subscription {

    private final Queue<ByteBuffer> buffers = new ConcurrentLinkedQueue<>(); // upstream -> drain
    private final AtomicLong requested = new AtomicLong(); // downstream -> drain
    private final SerialDrain drain = SerialDrain.of(Runnable::run, this::pass, this::passFailed, false);
    private final AtomicBoolean subscribed = new AtomicBoolean(); // subscribe, once

    private volatile Flow.Subscriber<? super ByteBuffer> downstream; // subscribe -> drain, clears
    private volatile Flow.Subscription upstream; // onSubscribe, once -> drain
    private volatile boolean listOutstanding; // drain sets, onNext clears
    private volatile boolean upstreamDone; // onError/onComplete -> drain
    private volatile Throwable upstreamError; // onError -> drain
    private volatile Throwable badRequest; // request (§3.9) -> drain
    private volatile boolean cancelled; // cancel -> drain

    private boolean terminated; // drain-confined
    private boolean upstreamCancelled; // drain-confined

    @Override
    public void subscribe(Flow.Subscriber<? super ByteBuffer> subscriber) {
        Objects.requireNonNull(subscriber, "§1.9: subscriber must not be null");
        if (!subscribed.compareAndSet(false, true)) { // §1.11: single use
            subscriber.onSubscribe(new Flow.Subscription() {
                @Override
                public void request(long n) {}

                @Override
                public void cancel() {}
            });
            subscriber.onError(new IllegalStateException("BufferFlattener allows one subscriber only"));
            return;
        }
        subscriber.onSubscribe(this);
        downstream = subscriber;
        drain.signal();
    }

    @Override
    public void request(long n) {
        if (n <= 0) {
            badRequest = new IllegalArgumentException("§3.9: request must be positive, was " + n);
        } else {
            requested.getAndAccumulate(n, (current, more) -> current + more < 0 ? Long.MAX_VALUE : current + more);
        }
        drain.signal();
    }

    @Override
    public void cancel() {
        cancelled = true;
        drain.signal();
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        Objects.requireNonNull(subscription, "§2.13: subscription must not be null");
        if (upstream != null) {
            subscription.cancel(); // §2.5
            return;
        }
        upstream = subscription;
        drain.signal();
    }

    @Override
    public void onNext(List<ByteBuffer> list) {
        Objects.requireNonNull(list, "§2.13: list must not be null");
        for (ByteBuffer buffer : list) {
            if (buffer.hasRemaining()) {
                buffers.add(buffer);
            }
        }
        listOutstanding = false;
        drain.signal();
    }

    @Override
    public void onError(Throwable error) {
        upstreamError = Objects.requireNonNull(error, "§2.13: error must not be null");
        upstreamDone = true;
        drain.signal();
    }

    @Override
    public void onComplete() {
        upstreamDone = true;
        drain.signal();
    }

    /** One pass of the drain; never yields, as it runs on whichever thread signalled. */
    private boolean pass() {
        drainPass();
        return false;
    }

    /**
     * SerialDrain D4: a pass threw, which only a downstream or upstream breaking §2.13 makes it
     * do. The subscription is treated as cancelled: the drain stays held, so nothing more is
     * signalled, and the upstream is cancelled (unless its own {@code request} was what threw).
     */
    private void passFailed(Throwable error) {
        Flow.Subscription source = upstream;
        downstream = null; // §3.13
        if (source != null && !upstreamCancelled) {
            upstreamCancelled = true;
            try {
                source.cancel();
            } catch (RuntimeException ignored) {
                // §2.13 broken upstream too; nothing is left to tell
            }
        }
    }

    private void drainPass() {
        Flow.Subscription source = upstream;
        Flow.Subscriber<? super ByteBuffer> target = downstream; // null until onSubscribe returned
        if (cancelled || badRequest != null) {
            buffers.clear();
            if (source != null && !upstreamCancelled) {
                upstreamCancelled = true;
                source.cancel();
            }
            if (!terminated && !cancelled && target != null) {
                terminated = true;
                target.onError(badRequest); // §3.9
            }
            if (terminated || cancelled) {
                downstream = null; // §3.13: drop the subscriber
            }
            return;
        }
        if (terminated || target == null) {
            return;
        }
        ByteBuffer next;
        while (requested.get() > 0 && (next = buffers.poll()) != null) {
            requested.getAndUpdate(current -> current == Long.MAX_VALUE ? current : current - 1);
            target.onNext(next);
            if (cancelled || badRequest != null) {
                return; // the next pass cleans up
            }
        }
        // F4, flags then queue: the upstream adds a list's buffers before it clears listOutstanding,
        // and before onComplete/onError sets upstreamDone (its signals are serial, §1.3). So a flag
        // read first and then an empty queue mean no buffer of that signal is still owed; in the
        // other order, a last list landing between the two reads would be dropped (F3), or a
        // second list requested while the first is queued (F1).
        boolean done = upstreamDone;
        boolean listAwaited = listOutstanding;
        if (!buffers.isEmpty()) {
            return; // owed but not yet requested, or just added (its drain() runs a pass)
        }
        if (done) {
            terminated = true;
            downstream = null; // §3.13: drop the subscriber
            Throwable error = upstreamError;
            if (error != null) {
                target.onError(error);
            } else {
                target.onComplete(); // §1.7: after the last buffer
            }
            return;
        }
        if (!listAwaited && requested.get() > 0 && source != null) {
            listOutstanding = true;
            source.request(1); // F1
        }
    }
}
