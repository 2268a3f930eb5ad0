package io.sluice.server.ws;

import io.sluice.WriteListener;
import io.sluice.WriteSnapshot;
import io.sluice.internal.write.WriteLedger;
import io.sluice.server.SendingSubscriber;
import org.eclipse.jetty.util.IteratingCallback;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.api.StatusCode;
import org.eclipse.jetty.websocket.common.WebSocketSession;
import org.eclipse.jetty.websocket.core.CoreSession;
import org.eclipse.jetty.websocket.core.Frame;
import org.eclipse.jetty.websocket.core.OpCode;

import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * One client's end: a publisher of binary messages written to a Jetty WebSocket {@link Session}
 * under sluice's write rules, a {@link WriteLedger} (§1.1, the strategy's window, the byte cap,
 * never stall), with Jetty's asynchronous send in place of a channel write.
 *
 * <p><b>One pass</b> ({@link #process()}, serialised by Jetty's {@link IteratingCallback}): make the
 * request the ledger allows (every call on the upstream subscription is made here or in
 * {@link #onCompleteFailure}, serialised with it: §2.7), then hand a batch of queued messages (at
 * most {@link WriteLedger#MAX_BATCH_ITEMS} and {@link WriteLedger#MAX_BATCH_BYTES}) to the session.
 * The batch counts as queued until Jetty has completed every send of it; then {@link #onSuccess}
 * records it as written. So a client that reads slowly keeps its sends pending, its ledger full, and
 * its upstream unasked. The batched lane ({@link FanOutLane#batched()}) sends batched frames on
 * Jetty's {@link CoreSession} and flushes once; the flush is one more send of the batch.
 *
 * <p>{@link #sessionEnded()} aborts: once no send is pending, the upstream is cancelled and the
 * queue dropped ({@link SendingSubscriber}).
 */
final class SessionSubscriber extends SendingSubscriber {

    private final Session session;
    private final CoreSession batching; // the batched lane's core session; null in the others
    private final WriteLedger ledger;
    private final WriteListener listener;
    private final Consumer<SessionSubscriber> onEnd; // told once, when the subscriber has released everything
    private final Batch batch = new Batch(); // the sends in flight: one batch at a time
    private long sendingItems; // process()-confined: the batch Jetty is sending
    private long sendingBytes; // process()-confined
    private long lastRequest; // process()-confined: for the listener

    SessionSubscriber(Session session, FanOutLane lane, WriteListener listener, Consumer<SessionSubscriber> onEnd) {
        this(session, lane.batched() ? ((WebSocketSession) session).getCoreSession() : null, lane, listener, onEnd);
    }

    /** With {@code batching} the core session the batched lane sends through (a test's own, or Jetty's). */
    SessionSubscriber(
            Session session,
            CoreSession batching,
            FanOutLane lane,
            WriteListener listener,
            Consumer<SessionSubscriber> onEnd) {
        this.session = session;
        this.batching = batching;
        this.ledger = new WriteLedger(lane.demand(), lane.maxQueuedBytes(), Message.BYTES);
        this.listener = listener;
        this.onEnd = onEnd;
    }

    /** Bytes received from upstream and not yet sent (queued, or in a batch Jetty is still sending). */
    long queuedBytes() {
        return ledger.queuedBytes();
    }

    /** The session closed or failed: stop sending, cancel the upstream, drop the queue. */
    void sessionEnded() {
        abort(new ClosedChannelException());
    }

    @Override
    protected void subscribed(Flow.Subscription subscription) {
        iterate();
    }

    /** §1.1 or a message over {@link Message#BYTES}: refused, the next pass fails the client. */
    @Override
    protected RuntimeException accept(ByteBuffer message) {
        RuntimeException refused =
                ledger.refusal(message.remaining(), "WebSocket send to " + session.getRemoteSocketAddress());
        if (refused == null) {
            ledger.receive(message.remaining());
        }
        return refused;
    }

    @Override
    protected Action process() throws Throwable {
        Flow.Subscription subscription = upstream();
        if (subscription == null) {
            return Action.IDLE; // an abort before onSubscribe
        }
        throwIfUpstreamFailed();
        long n = ledger.nextRequest(); // the strategy, the byte cap, never stall
        lastRequest = n;
        if (n > 0 && !upstreamDone()) {
            ledger.requested(n);
            subscription.request(n); // §2.7: only here
        }
        int items = 0;
        long bytes = 0;
        for (ByteBuffer message = queue().peek();
                message != null
                        && items < WriteLedger.MAX_BATCH_ITEMS
                        && (items == 0 || bytes + message.remaining() <= WriteLedger.MAX_BATCH_BYTES);
                message = queue().peek()) {
            queue().poll();
            if (items == 0) {
                batch.start();
            }
            batch.add();
            items++;
            bytes += message.remaining();
            if (batching == null) {
                session.sendBinary(message, batch);
            } else {
                batching.sendFrame(new Frame(OpCode.BINARY).setPayload(message), batch.core, true);
            }
        }
        if (items > 0) {
            if (batching != null) {
                batch.add();
                batching.flush(batch.core); // writes what the pass batched; completes after its sends
            }
            sendingItems = items;
            sendingBytes = bytes;
            batch.sealed();
            return Action.SCHEDULED;
        }
        return upstreamDone() ? Action.SUCCEEDED : Action.IDLE;
    }

    /** Every send of a batch succeeded: its messages are written. */
    @Override
    protected void onSuccess() {
        ledger.written(sendingItems, sendingBytes);
        sendingItems = 0;
        sendingBytes = 0;
        listener.onPass(snapshot());
    }

    @Override
    protected void onCompleteSuccess() {
        session.close();
        onEnd.accept(this);
    }

    /** The upstream is cancelled and the queue dropped: the ledger holds nothing now. */
    @Override
    protected void ended(Throwable cause) {
        ledger.dropQueued();
        if (!(cause instanceof ClosedChannelException)) {
            session.close(StatusCode.SERVER_ERROR, "send failed", Callback.NOOP);
        }
        onEnd.accept(this);
    }

    private WriteSnapshot snapshot() {
        return new WriteSnapshot(
                ledger.requestedItems(),
                ledger.receivedItems(),
                ledger.writtenItems(),
                ledger.queuedBytes(),
                ledger.writtenBytes(),
                lastRequest,
                ledger.requestCalls(),
                ledger.controller().windowItems(),
                ledger.controller().describe());
    }

    /**
     * The callback of every send in one batch: completes the subscriber once all of them have
     * completed (with the first failure, if any). Jetty may complete a send inside {@code sendBinary};
     * the extra count held until the pass sealed it keeps the batch open until then.
     */
    private final class Batch implements Callback {
        private final AtomicInteger pending = new AtomicInteger(); // sends not completed, +1 until sealed
        private final AtomicReference<Throwable> failure = new AtomicReference<>(); // the first send failure
        // the same count as a core callback, for the batched lane's frames and flush
        private final org.eclipse.jetty.util.Callback core =
                org.eclipse.jetty.util.Callback.from(this::succeed, this::fail);

        void start() {
            failure.set(null);
            pending.set(1);
        }

        void add() {
            pending.incrementAndGet();
        }

        /** Every send of the batch has been made: drops the count {@link #start()} held. */
        void sealed() {
            completeOne();
        }

        @Override
        public void succeed() {
            completeOne();
        }

        @Override
        public void fail(Throwable cause) {
            failure.compareAndSet(null, cause);
            completeOne();
        }

        private void completeOne() {
            if (pending.decrementAndGet() == 0) {
                Throwable first = failure.get();
                if (first == null) {
                    SessionSubscriber.this.succeeded();
                } else {
                    SessionSubscriber.this.failed(first);
                }
            }
        }
    }
}
