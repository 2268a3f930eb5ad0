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
 * Lane C's download end: our file publisher into a Jetty response, one socket write at a time
 * (Jetty's {@link IteratingCallback} serialises the writes and trampolines synchronous
 * completions).
 *
 * <p><b>Backpressure.</b> {@linkplain #bounded Bounded}: one buffer is requested at start and one
 * more each time a buffer is taken for writing, so at most one buffer waits while another is being
 * written; a slow reader holds two buffers and no thread. {@linkplain #unbounded Unbounded} (lane
 * C-unbounded, the control): {@code Long.MAX_VALUE} is requested at once and the whole file queues
 * in memory until the socket takes it, as the WebSocket server in our reference texts did before
 * it bounded its window. {@link #QUEUED_BYTES} counts queued bytes of all responses.
 *
 * <p>Jetty's own {@code Content.Sink.asSubscriber} is not used: it completes its callback only
 * after a chunk flagged last was written, which a publisher of plain {@code ByteBuffer}s never
 * sends, so the response never completes and a kept-alive connection hangs.
 */
final class ResponseBodySubscriber extends IteratingCallback implements Flow.Subscriber<ByteBuffer> {

    static final AtomicLong QUEUED_BYTES = new AtomicLong();

    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private final Response response;
    private final Callback callback;
    private final boolean bounded;
    private final Queue<ByteBuffer> queue = new ConcurrentLinkedQueue<>();
    private volatile Flow.Subscription upstream;  // set once in onSubscribe
    private volatile boolean upstreamDone;        // publisher -> process()
    private volatile Throwable upstreamFailure;   // publisher -> process()
    private volatile boolean failed;              // set once when the response failed
    private boolean lastWritten;                  // process()-confined

    private ResponseBodySubscriber(Response response, Callback callback, boolean bounded) {
        this.response = response;
        this.callback = callback;
        this.bounded = bounded;
    }

    static ResponseBodySubscriber bounded(Response response, Callback callback) {
        return new ResponseBodySubscriber(response, callback, true);
    }

    static ResponseBodySubscriber unbounded(Response response, Callback callback) {
        return new ResponseBodySubscriber(response, callback, false);
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        upstream = subscription;
        subscription.request(bounded ? 1 : Long.MAX_VALUE);
    }

    @Override
    public void onNext(ByteBuffer buffer) {
        if (failed) {
            return; // the client is gone and cancel was sent; items may still arrive (§2.8)
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
            if (bounded) {
                upstream.request(1); // one in the socket, at most one waiting
            }
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
