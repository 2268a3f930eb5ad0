package io.sluice.server.ws;

import io.sluice.WriteSnapshot;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.core.CoreSession;
import org.eclipse.jetty.websocket.core.Frame;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.Flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The subscriber against a scripted session whose sends complete only when the test says so, and
 * an upstream the test drives by hand: every step runs on the test thread, so no sleeps.
 */
class SessionSubscriberTest {

    /** A session whose sends wait in {@code sends} until the test completes their callbacks. */
    private static final class ScriptedSession {
        final Deque<Callback> sends = new ArrayDeque<>();
        final List<ByteBuffer> sent = new ArrayList<>();
        int closes;

        Session session() {
            return (Session) Proxy.newProxyInstance(
                    Session.class.getClassLoader(),
                    new Class<?>[] {Session.class},
                    (proxy, method, args) -> switch (method.getName()) {
                        case "sendBinary" -> {
                            sent.add((ByteBuffer) args[0]);
                            sends.add((Callback) args[1]);
                            yield null;
                        }
                        case "close" -> {
                            closes++;
                            yield null;
                        }
                        case "isOpen" -> true;
                        case "toString" -> "scripted session";
                        case "hashCode" -> System.identityHashCode(proxy);
                        case "equals" -> proxy == args[0];
                        default -> null; // getRemoteSocketAddress and the rest: unused
                    });
        }

        /** Completes every send made so far, successfully; returns how many. */
        int completeAll() {
            int completed = 0;
            for (Callback send = sends.poll(); send != null; send = sends.poll()) {
                send.succeed();
                completed++;
            }
            return completed;
        }
    }

    /** A core session that records the batched lane's frames and flushes; the test completes their callbacks. */
    private static final class ScriptedCore {
        final List<Frame> frames = new ArrayList<>();
        final List<Boolean> batchFlags = new ArrayList<>();
        final Deque<org.eclipse.jetty.util.Callback> frameSends = new ArrayDeque<>();
        final Deque<org.eclipse.jetty.util.Callback> flushes = new ArrayDeque<>();

        CoreSession session() {
            return (CoreSession) Proxy.newProxyInstance(
                    CoreSession.class.getClassLoader(),
                    new Class<?>[] {CoreSession.class},
                    (proxy, method, args) -> switch (method.getName()) {
                        case "sendFrame" -> {
                            frames.add((Frame) args[0]);
                            frameSends.add((org.eclipse.jetty.util.Callback) args[1]);
                            batchFlags.add((Boolean) args[2]);
                            yield null;
                        }
                        case "flush" -> {
                            flushes.add((org.eclipse.jetty.util.Callback) args[0]);
                            yield null;
                        }
                        case "toString" -> "scripted core session";
                        case "hashCode" -> System.identityHashCode(proxy);
                        case "equals" -> proxy == args[0];
                        default -> throw new UnsupportedOperationException(method.getName());
                    });
        }
    }

    /** An upstream that counts requests and records cancel. */
    private static final class CountingUpstream implements Flow.Subscription {
        long requested;
        boolean cancelled;

        @Override
        public void request(long n) {
            requested = requested + n < 0 ? Long.MAX_VALUE : requested + n;
        }

        @Override
        public void cancel() {
            cancelled = true;
        }
    }

    private final ScriptedSession scripted = new ScriptedSession();
    private final CountingUpstream upstream = new CountingUpstream();
    private final List<WriteSnapshot> passes = new ArrayList<>();
    private final List<SessionSubscriber> ended = new ArrayList<>();
    private long delivered;

    private SessionSubscriber subscribe(FanOutLane lane) {
        SessionSubscriber subscriber = new SessionSubscriber(scripted.session(), lane, passes::add, ended::add);
        subscriber.onSubscribe(upstream);
        return subscriber;
    }

    /** Delivers every message requested and not yet delivered, in sequence. */
    private void deliverAllRequested(SessionSubscriber subscriber) {
        while (delivered < upstream.requested) {
            subscriber.onNext(Message.encode(delivered++, 0));
        }
    }

    @Test
    void theFixedWindowNeverHoldsMoreThan100AndRefillsWhenTwoAreLeft() {
        SessionSubscriber subscriber = subscribe(FanOutLane.FIXED);
        long written = 0;
        for (int round = 0; round < 20; round++) {
            assertTrue(
                    upstream.requested - written <= 100,
                    "held " + (upstream.requested - written) + " in round " + round);
            deliverAllRequested(subscriber);
            written += scripted.completeAll();
        }
        assertTrue(upstream.requested > 1_000, "it kept going: " + upstream.requested);
        for (int i = 0; i < scripted.sent.size(); i++) {
            assertEquals(i, Message.sequence(scripted.sent.get(i)), "sent in order");
        }
    }

    @Test
    void theBatchedLaneSendsBatchedFramesInOrderAndCountsAPassWrittenOnlyOnceItsFlushCompleted() {
        ScriptedCore core = new ScriptedCore();
        SessionSubscriber subscriber = new SessionSubscriber(
                scripted.session(), core.session(), FanOutLane.BOUNDED_BATCHED, passes::add, ended::add);
        subscriber.onSubscribe(upstream);
        for (int round = 0; round < 20; round++) {
            deliverAllRequested(subscriber);
            while (!core.flushes.isEmpty()) {
                assertEquals(1, core.flushes.size(), "one flush per pass, after its frames");
                long written =
                        passes.isEmpty() ? 0 : passes.get(passes.size() - 1).writtenItems();
                for (var send = core.frameSends.poll(); send != null; send = core.frameSends.poll()) {
                    send.succeeded(); // Jetty copied the frame into its batch buffer
                }
                long after =
                        passes.isEmpty() ? 0 : passes.get(passes.size() - 1).writtenItems();
                assertEquals(written, after, "nothing counts as written before the flush completed");
                core.flushes.poll().succeeded(); // may run the next pass, with its own flush
            }
        }
        assertTrue(
                upstream.requested > 2 * (FanOutLane.BOUNDED_MAX_QUEUED_BYTES / Message.BYTES),
                "it kept going: " + upstream.requested);
        assertTrue(scripted.sent.isEmpty(), "no unbatched sendBinary");
        assertEquals(delivered, core.frames.size(), "every delivered message sent");
        for (int i = 0; i < core.frames.size(); i++) {
            assertEquals(i, Message.sequence(core.frames.get(i).getPayload()), "sent in order, no gap");
            assertTrue(core.batchFlags.get(i), "sent as a batched frame");
        }
        assertEquals(delivered, passes.get(passes.size() - 1).writtenItems(), "every message written");
        assertEquals(0, subscriber.queuedBytes(), "nothing left queued");
    }

    @Test
    void theBoundedLaneNeverHoldsMoreThanItsByteCap() {
        SessionSubscriber subscriber = subscribe(FanOutLane.BOUNDED);
        long capItems = FanOutLane.BOUNDED_MAX_QUEUED_BYTES / Message.BYTES;
        long written = 0;
        for (int round = 0; round < 20; round++) {
            assertTrue(
                    upstream.requested - written <= capItems,
                    "held " + (upstream.requested - written) + " of " + capItems + " in round " + round);
            deliverAllRequested(subscriber);
            assertTrue(subscriber.queuedBytes() <= FanOutLane.BOUNDED_MAX_QUEUED_BYTES);
            written += scripted.completeAll();
        }
        assertTrue(upstream.requested > 2 * capItems, "it kept going: " + upstream.requested);
    }

    @Test
    void aClientWhoseSendDoesNotCompleteIsAskedForNothingMore() {
        SessionSubscriber subscriber = subscribe(FanOutLane.BOUNDED);
        deliverAllRequested(subscriber);
        long requested = upstream.requested;
        deliverAllRequested(subscriber);
        assertEquals(requested, upstream.requested);
        assertEquals(1, scripted.sends.size(), "one batch in flight, the rest queued behind it");
    }

    @Test
    void theUnboundedLaneAsksForEverythingOnce() {
        SessionSubscriber subscriber = subscribe(FanOutLane.UNBOUNDED);
        assertEquals(Long.MAX_VALUE, upstream.requested);
        subscriber.onNext(Message.encode(0, 0));
        scripted.completeAll();
        assertEquals(Long.MAX_VALUE, upstream.requested);
        assertEquals(1, passes.get(passes.size() - 1).writtenItems(), "the listener saw the pass");
    }

    @Test
    void aSessionEndedWithABatchInFlightCancelsUpstreamOnlyOnceTheBatchCompleted() {
        SessionSubscriber subscriber = subscribe(FanOutLane.BOUNDED);
        subscriber.onNext(Message.encode(delivered++, 0));
        subscriber.onNext(Message.encode(delivered++, 0));
        assertEquals(1, scripted.sends.size());

        subscriber.sessionEnded();
        assertFalse(upstream.cancelled, "Jetty still owns the message in flight");
        scripted.sends.poll().fail(new ClosedChannelException());
        assertTrue(upstream.cancelled);
        assertEquals(List.of(subscriber), ended, "ended once");
        assertEquals(0, subscriber.queuedBytes(), "the queue was dropped");
        assertEquals(0, scripted.closes, "a session that ended is not closed again");

        subscriber.onNext(Message.encode(delivered++, 0)); // after cancel (§2.8): ignored
        assertTrue(scripted.sends.isEmpty());
        assertEquals(List.of(subscriber), ended);
    }

    @Test
    void aMessageBeyondTheRequestFailsTheClientAndCancelsUpstream_1_1() {
        SessionSubscriber subscriber = subscribe(FanOutLane.FIXED);
        deliverAllRequested(subscriber);
        subscriber.onNext(Message.encode(delivered++, 0)); // one more than requested
        assertFalse(upstream.cancelled, "not while a batch is in flight");
        scripted.completeAll();
        assertTrue(upstream.cancelled, "§1.1 ends the client");
        assertEquals(List.of(subscriber), ended);
        assertEquals(1, scripted.closes, "the session is closed with an error status");
        assertEquals(1, scripted.sent.size(), "nothing sent after the violation");
    }
}
