package io.sluice.server;

import org.eclipse.jetty.util.IteratingCallback;

import java.nio.ByteBuffer;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Flow;

/**
 * The receiving half shared by the subscribers that feed a Jetty sink with an asynchronous,
 * callback-completed send ({@link ResponseBodySubscriber} for a response,
 * {@code ws.SessionSubscriber} for a WebSocket session): it queues what the publisher sends and
 * {@linkplain #iterate() iterates}; a subclass's {@link #process()} takes from the queue and sends,
 * with itself as the send's callback, so Jetty's {@link IteratingCallback} serialises the passes.
 *
 * <p><b>Threading.</b> The publisher's signals are serial (§1.3) and may come from any thread;
 * {@code process()}, {@code onSuccess()} and {@link #onCompleteFailure} run one at a time.
 *
 * <p><b>Resources.</b> {@link #onCompleteFailure} (a send failed, or an {@code abort}; Jetty runs it
 * once no send is pending) cancels the upstream and {@linkplain #discard discards} every queued item;
 * an item that arrives later is discarded at once.
 */
public abstract class SendingSubscriber extends IteratingCallback implements Flow.Subscriber<ByteBuffer> {

    private final Queue<ByteBuffer> queue =
            new ConcurrentLinkedQueue<>(); // publisher adds; process() and the drop poll
    private volatile Flow.Subscription upstream; // set once in onSubscribe
    private volatile boolean upstreamDone; // publisher -> process()
    private volatile Throwable upstreamFailure; // publisher -> process()
    private volatile boolean failed; // set once in onCompleteFailure, before its drop

    /** Called once from {@link #onSubscribe}, after the subscription is stored. */
    protected abstract void subscribed(Flow.Subscription subscription);

    /** Counts {@code item} in as queued, or returns why it is refused (the next pass then fails). */
    protected abstract RuntimeException accept(ByteBuffer item);

    /** {@code item} will never be sent; {@code accepted}: {@link #accept} had counted it in. */
    protected void discard(ByteBuffer item, boolean accepted) {}

    /** After {@link #onCompleteFailure} cancelled the upstream and discarded the queue. */
    protected abstract void ended(Throwable cause);

    @Override
    public final void onSubscribe(Flow.Subscription subscription) {
        if (upstream != null) {
            subscription.cancel(); // §2.5
            return;
        }
        upstream = subscription;
        subscribed(subscription);
    }

    @Override
    public final void onNext(ByteBuffer item) {
        if (failed) {
            discard(item, false); // cancelled: items may still arrive (§2.8)
            return;
        }
        RuntimeException refused = accept(item);
        if (refused != null) {
            onError(refused);
            return;
        }
        queue.add(item);
        if (failed) {
            // onCompleteFailure may have drained the queue between the check above and the add:
            // set before its drain, the flag is seen here whenever that drain could miss the item.
            discardQueued();
            return;
        }
        iterate();
    }

    @Override
    public final void onError(Throwable failure) {
        upstreamFailure = failure;
        iterate();
    }

    @Override
    public final void onComplete() {
        upstreamDone = true;
        iterate();
    }

    /** The upstream subscription, null before {@code onSubscribe} (an abort may come first). */
    protected final Flow.Subscription upstream() {
        return upstream;
    }

    protected final boolean upstreamDone() {
        return upstreamDone;
    }

    /** Throws the upstream's failure, or a refusal of {@link #accept}, if there was one. */
    protected final void throwIfUpstreamFailed() throws Throwable {
        Throwable failure = upstreamFailure;
        if (failure != null) {
            throw failure;
        }
    }

    protected final Queue<ByteBuffer> queue() {
        return queue;
    }

    /** Runs once no send is pending (after an abort Jetty waits for the send in flight). */
    @Override
    protected final void onCompleteFailure(Throwable cause) {
        failed = true;
        Flow.Subscription subscription = upstream;
        if (subscription != null) {
            subscription.cancel();
        }
        discardQueued();
        ended(cause);
    }

    /** May run on two threads at once (each polls its own items). */
    private void discardQueued() {
        for (ByteBuffer dropped = queue.poll(); dropped != null; dropped = queue.poll()) {
            discard(dropped, true);
        }
    }
}
