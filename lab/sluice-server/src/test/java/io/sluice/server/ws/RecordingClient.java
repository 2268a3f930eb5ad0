package io.sluice.server.ws;

import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;

import java.nio.ByteBuffer;

/**
 * A test client: checks every message is the next in sequence, and demands the next frame until it
 * has read {@code stallAfter} messages, then stops reading (the slowest client there is; no sleep).
 * Public because Jetty calls a listener through method handles.
 */
public final class RecordingClient implements Session.Listener {

    private final long stallAfter;
    private volatile Session session; // set on open
    private long received; // guarded by this
    private long faults; // guarded by this: gaps and duplicates
    private boolean closed; // guarded by this

    RecordingClient(long stallAfter) {
        this.stallAfter = stallAfter;
    }

    static RecordingClient fast() {
        return new RecordingClient(Long.MAX_VALUE);
    }

    @Override
    public void onWebSocketOpen(Session opened) {
        session = opened;
        opened.demand();
    }

    @Override
    public void onWebSocketBinary(ByteBuffer payload, Callback callback) {
        long sequence = Message.sequence(payload);
        boolean more;
        synchronized (this) {
            if (sequence != received) {
                faults++;
            }
            received = sequence + 1;
            more = received < stallAfter;
            notifyAll();
        }
        callback.succeed();
        if (more) {
            session.demand();
        }
    }

    @Override
    public void onWebSocketClose(int statusCode, String reason) {
        synchronized (this) {
            closed = true;
            notifyAll();
        }
    }

    /** A send or close failing as the test stops the client with the connection open: expected, not logged. */
    @Override
    public void onWebSocketError(Throwable cause) {
        onWebSocketClose(-1, cause.toString());
    }

    synchronized long received() {
        return received;
    }

    synchronized long faults() {
        return faults;
    }

    /** Waits until {@code count} messages arrived; returns whether they did within {@code timeoutMillis}. */
    synchronized boolean awaitReceived(long count, long timeoutMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        for (long left = timeoutMillis; received < count; left = deadline - System.currentTimeMillis()) {
            if (left <= 0) {
                return false;
            }
            wait(left);
        }
        return true;
    }

    /** Closes the connection with the close handshake (a reading client) and waits until Jetty reports it closed. */
    boolean closeAndAwait(long timeoutMillis) throws InterruptedException {
        session.close();
        return awaitClosed(timeoutMillis);
    }

    /** Drops the connection without a handshake (a stalled client reads no close frame) and waits for its end. */
    boolean disconnectAndAwait(long timeoutMillis) throws InterruptedException {
        session.disconnect();
        return awaitClosed(timeoutMillis);
    }

    private synchronized boolean awaitClosed(long timeoutMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        for (long left = timeoutMillis; !closed; left = deadline - System.currentTimeMillis()) {
            if (left <= 0) {
                return false;
            }
            wait(left);
        }
        return true;
    }
}
