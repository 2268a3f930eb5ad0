package io.sluice.server;

import io.sluice.ChunkPool;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.IteratingCallback;

import java.nio.ByteBuffer;
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
 * <p><b>Lent chunks.</b> From a file ({@link FileDownload}), every buffer received is a chunk lent
 * from a {@link ChunkPool}; each is given back exactly once, when nothing will read it again:
 * <ul>
 *   <li>a chunk handed to Jetty, when Jetty has completed its write: in {@link #onSuccess()} after
 *       the write succeeded, in {@link #onCompleteFailure} after it failed;</li>
 *   <li>a queued chunk the failed response will never write, in {@link #onCompleteFailure};</li>
 *   <li>a chunk that arrives after the response failed, at once in {@link #onNext}.</li>
 * </ul>
 * The rule relied on is Jetty's: a buffer passed to {@code Content.Sink.write(last, buffer,
 * callback)} is the sink's until that callback completes, successfully or not, and only then may
 * it be recycled (Jetty's own {@code ContentSinkSubscriber} releases each chunk in its write
 * callback's {@code succeeded} and {@code failed}). This class is that callback, and
 * {@code IteratingCallback} turns its completions into {@code onSuccess} (once per write that
 * succeeded) and {@code onCompleteFailure} (only once no write is pending: after an {@code abort}
 * it waits for the pending write's callback), both serialised with {@link #process}. Its
 * {@code onFailure}, which may run while a write is still pending, gives nothing back. From an
 * object ({@link #owned}, {@link ObjectStorage}) the buffers are the subscriber's own, copied out
 * of the HTTP client's: the same moments only drop the reference.
 *
 * <p>Jetty's own {@code Content.Sink.asSubscriber} is not used: it completes its callback only
 * after a chunk flagged last was written, which a publisher of plain {@code ByteBuffer}s never
 * sends, so the response never completes and a kept-alive connection hangs.
 */
final class ResponseBodySubscriber extends SendingSubscriber {

    static final AtomicLong QUEUED_BYTES = new AtomicLong();

    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private final Response response;
    private final Callback callback;
    private final boolean bounded;
    private final boolean lent; // buffers are lent chunks, each given back once
    private boolean lastWritten; // process()-confined
    private ByteBuffer writing; // serialised with process(): the lent chunk Jetty is writing

    private ResponseBodySubscriber(Response response, Callback callback, boolean bounded, boolean lent) {
        this.response = response;
        this.callback = callback;
        this.bounded = bounded;
        this.lent = lent;
    }

    /** Lane C: one buffer requested per buffer taken for writing; lent chunks. */
    static ResponseBodySubscriber bounded(Response response, Callback callback) {
        return new ResponseBodySubscriber(response, callback, true, true);
    }

    /** Lane C-unbounded: everything requested at once; lent chunks. */
    static ResponseBodySubscriber unbounded(Response response, Callback callback) {
        return new ResponseBodySubscriber(response, callback, false, true);
    }

    /** As {@link #bounded}, for buffers that are the subscriber's own (no pool to give them back to). */
    static ResponseBodySubscriber owned(Response response, Callback callback) {
        return new ResponseBodySubscriber(response, callback, true, false);
    }

    @Override
    protected void subscribed(Flow.Subscription subscription) {
        subscription.request(bounded ? 1 : Long.MAX_VALUE);
    }

    @Override
    protected RuntimeException accept(ByteBuffer buffer) {
        QUEUED_BYTES.addAndGet(buffer.remaining());
        return null;
    }

    /** A chunk the failed response will never write, queued or arriving after the failure (§2.8). */
    @Override
    protected void discard(ByteBuffer buffer, boolean accepted) {
        if (accepted) {
            QUEUED_BYTES.addAndGet(-buffer.remaining());
        }
        if (lent) {
            ChunkPool.giveBack(buffer);
        }
    }

    @Override
    protected Action process() throws Throwable {
        ByteBuffer next = queue().poll();
        if (next != null) {
            QUEUED_BYTES.addAndGet(-next.remaining());
            if (bounded) {
                upstream().request(1); // one in the socket, at most one waiting
            }
            writing = next; // Jetty's until this write's callback completes
            response.write(false, next, this);
            return Action.SCHEDULED;
        }
        throwIfUpstreamFailed();
        if (upstreamDone()) {
            if (!lastWritten) {
                lastWritten = true;
                response.write(true, EMPTY, this);
                return Action.SCHEDULED;
            }
            return Action.SUCCEEDED;
        }
        return Action.IDLE;
    }

    /** A write succeeded: Jetty is done with its chunk. */
    @Override
    protected void onSuccess() {
        giveBackWritten();
    }

    @Override
    protected void onCompleteSuccess() {
        callback.succeeded();
    }

    /** Runs once no write is pending: the one that failed (if any) is done with its chunk. */
    @Override
    protected void ended(Throwable cause) {
        giveBackWritten();
        callback.failed(cause);
    }

    private void giveBackWritten() {
        ByteBuffer written = writing;
        if (written != null) {
            writing = null;
            if (lent) {
                ChunkPool.giveBack(written);
            }
        }
    }
}
