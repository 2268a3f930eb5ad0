package io.sluice.server.ws;

import org.eclipse.jetty.websocket.api.Session;

import java.nio.ByteBuffer;
import java.util.concurrent.Flow;

/**
 * One client's WebSocket endpoint: on open, subscribes a {@link SessionSubscriber} for its
 * session to a new stream of the generator; on close or error, closes it, which cancels the
 * stream. It reads nothing from the client but its close frame (auto-demanding).
 *
 * <p>Public only because Jetty calls a listener's methods through method handles, which need a
 * public class; its constructor stays package-private.
 */
public final class FanOutEndpoint implements Session.Listener.AutoDemanding {

    private final Flow.Publisher<ByteBuffer> messages;
    private final FanOutLane lane;
    private final FanOutStats stats;
    private volatile SessionSubscriber subscriber; // set on open (a Jetty thread), read on close

    FanOutEndpoint(Flow.Publisher<ByteBuffer> messages, FanOutLane lane, FanOutStats stats) {
        this.messages = messages;
        this.lane = lane;
        this.stats = stats;
    }

    @Override
    public void onWebSocketOpen(Session session) {
        SessionSubscriber opened = new SessionSubscriber(session, lane, stats.newListener(), stats::ended);
        subscriber = opened;
        stats.opened(opened);
        messages.subscribe(opened);
    }

    @Override
    public void onWebSocketClose(int statusCode, String reason) {
        end();
    }

    @Override
    public void onWebSocketError(Throwable cause) {
        end();
    }

    private void end() {
        SessionSubscriber opened = subscriber;
        if (opened != null) {
            opened.sessionEnded();
        }
    }
}
