package io.sluice.server;

import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.IteratingCallback;

import java.nio.ByteBuffer;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Lane C-unbounded's download end, the control with no backpressure: it requests
 * {@code Long.MAX_VALUE} at once and queues whatever the file publisher delivers until the socket
 * takes it, as the WebSocket server in our reference texts did before it bounded its window. With
 * slow readers the queue holds most of every file being served. {@link #QUEUED_BYTES} counts
 * queued bytes over all responses for the metrics endpoint.
 */
final class UnboundedResponseSubscriber extends IteratingCallback implements Flow.Subscriber<ByteBuffer> {

    static final AtomicLong QUEUED_BYTES = new AtomicLong();

    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private final Response response;
    private final Callback callback;
    private final Queue<ByteBuffer> queue = new ConcurrentLinkedQueue<>();
    private volatile boolean upstreamDone;     // publisher -> writer
    private volatile Throwable upstreamFailure; // publisher -> writer
    private volatile Flow.Subscription upstream; // set once in onSubscribe
    private volatile boolean failed;           // set once when the response failed
    private boolean lastWritten;               // process()-confined

    UnboundedResponseSubscriber(Response response, Callback callback) {
        this.response = response;
        this.callback = callback;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        upstream = subscription;
        subscription.request(Long.MAX_VALUE); // the point of this control: no backpressure at all
    }

    @Override
    public void onNext(ByteBuffer buffer) {
        if (failed) {
            return; // the client is gone; cancel has been sent (§2.8: items may still arrive)
        }
        QUEUED_BYTES.addAndGet(buffer.remaining());
        queue.add(buffer);
        iterate();
    }

    @Override
    public void onError(Throwable failure) {
        upstreamFailure = failure;
        iterate();
    }

    @Override
    public void onComplete() {
        upstreamDone = true;
        iterate();
    }

    @Override
    protected Action process() throws Throwable {
        ByteBuffer next = queue.poll();
        if (next != null) {
            QUEUED_BYTES.addAndGet(-next.remaining());
            response.write(false, next, this);
            return Action.SCHEDULED;
        }
        Throwable failure = upstreamFailure;
        if (failure != null) {
            throw failure;
        }
        if (upstreamDone) {
            if (!lastWritten) {
                lastWritten = true;
                response.write(true, EMPTY, this);
                return Action.SCHEDULED;
            }
            return Action.SUCCEEDED;
        }
        return Action.IDLE;
    }

    @Override
    protected void onCompleteSuccess() {
        callback.succeeded();
    }

    @Override
    protected void onCompleteFailure(Throwable cause) {
        failed = true;
        Flow.Subscription subscription = upstream;
        if (subscription != null) {
            subscription.cancel();
        }
        for (ByteBuffer dropped = queue.poll(); dropped != null; dropped = queue.poll()) {
            QUEUED_BYTES.addAndGet(-dropped.remaining());
        }
        callback.failed(cause);
    }
}
