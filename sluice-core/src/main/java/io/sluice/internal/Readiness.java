package io.sluice.internal;

import java.io.IOException;
import java.nio.channels.Channel;
import java.nio.channels.SelectableChannel;
import java.nio.channels.Selector;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Waits until a channel that just returned 0 can make progress, without spinning: a non-blocking
 * {@link SelectableChannel} (socket, pipe) is waited on with a selector of its own, opened on the
 * first wait; any other channel backs off with growing sleeps (1 µs up to 10 ms). Waits wake every
 * 100 ms to notice cancellation. Drain-confined.
 */
public final class Readiness implements AutoCloseable {

    private static final long MAX_BACKOFF_NANOS = 10_000_000L;

    private final Channel channel;
    private final int interest;
    private final BooleanSupplier cancelled; // asked by the drain, in await()
    private Selector selector; // drain-confined; opened lazily
    private long backoffNanos = 1_000; // drain-confined

    public Readiness(Channel channel, int interest, BooleanSupplier cancelled) {
        this.channel = channel;
        this.interest = interest;
        this.cancelled = cancelled;
    }

    /** Waits for readiness; returns false if the operation was cancelled meanwhile. */
    public boolean await() throws IOException {
        if (cancelled.getAsBoolean()) {
            return false;
        }
        if (channel instanceof SelectableChannel && !((SelectableChannel) channel).isBlocking()) {
            SelectableChannel selectable = (SelectableChannel) channel;
            if (selector == null) {
                selector = Selector.open();
                selectable.register(selector, interest);
            }
            selector.select(100);
            selector.selectedKeys().clear();
        } else {
            LockSupport.parkNanos(backoffNanos);
            backoffNanos = Math.min(backoffNanos * 2, MAX_BACKOFF_NANOS);
        }
        return !cancelled.getAsBoolean();
    }

    /** Resets the back-off after progress. */
    public void progressed() {
        backoffNanos = 1_000;
    }

    @Override
    public void close() throws IOException {
        if (selector != null) {
            selector.close();
        }
    }
}
