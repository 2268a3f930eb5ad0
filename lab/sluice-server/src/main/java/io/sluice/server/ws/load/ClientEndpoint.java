package io.sluice.server.ws.load;

import io.sluice.server.ws.Message;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * One load client: reads its stream, checks that every message is the next in sequence, and asks
 * for the next frame at once (fast) or {@code slowDelayMillis} later (slow: the seed's sleep per
 * message, without holding a thread). Until it demands, Jetty reads nothing more from its socket,
 * so the server's sends to it back up. A fast client records each message's latency, send time to
 * receipt, in microseconds.
 *
 * <p><b>Threading.</b> Jetty calls {@code onWebSocketBinary} for one frame at a time, after a
 * demand, so the order check's field is confined to those calls.
 *
 * <p>Public only because Jetty calls a listener's methods through method handles, which need a
 * public class; its constructor stays package-private.
 */
public final class ClientEndpoint implements Session.Listener {

    private final boolean slow;
    private final long slowDelayMillis;
    private final FanOutLoad load; // its timer, latency recorder and totals, thread-safe
    private volatile Session session; // set on open
    private long expected; // frame-callback-confined: the next sequence number

    ClientEndpoint(boolean slow, long slowDelayMillis, FanOutLoad load) {
        this.slow = slow;
        this.slowDelayMillis = slowDelayMillis;
        this.load = load;
    }

    /** Closes the connection (normal status); Jetty completes the close in the background. */
    void close() {
        Session open = session;
        if (open != null && open.isOpen()) {
            open.close();
        }
    }

    @Override
    public void onWebSocketOpen(Session opened) {
        session = opened;
        opened.demand();
    }

    @Override
    public void onWebSocketBinary(ByteBuffer payload, Callback callback) {
        long sequence = Message.sequence(payload);
        if (!slow) {
            long latencyNanos = Message.nowEpochNanos() - Message.sentEpochNanos(payload);
            load.latencyMicros().recordValue(Math.max(0, latencyNanos / 1000));
        }
        if (sequence > expected) {
            load.gaps().increment();
        } else if (sequence < expected) {
            load.duplicates().increment();
        }
        expected = sequence + 1;
        (slow ? load.slowMessages() : load.fastMessages()).increment();
        callback.succeed();
        if (slow) {
            load.timer().schedule(session::demand, slowDelayMillis, TimeUnit.MILLISECONDS);
        } else {
            session.demand();
        }
    }

    @Override
    public void onWebSocketError(Throwable cause) {
        load.firstError().compareAndSet(null, cause);
    }
}
