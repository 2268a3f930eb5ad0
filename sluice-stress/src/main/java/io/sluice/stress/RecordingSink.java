package io.sluice.stress;

import io.sluice.internal.WriteSink;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An in-memory {@link WriteSink} that records what the writer did to it, and when: how many bytes
 * it wrote, how often it was closed, and whether a write started after {@link #abort()} returned or
 * after a dependent of the stage saw the write cancelled.
 */
final class RecordingSink implements WriteSink {

    private final AtomicInteger closes = new AtomicInteger();                // drain -> dependent, arbiter
    private final AtomicInteger writesAfterAbort = new AtomicInteger();      // drain -> arbiter
    private final AtomicInteger writesAfterCancelSeen = new AtomicInteger(); // drain -> arbiter
    private volatile int bytes;                       // drain writes (serial) -> arbiter
    private volatile boolean abortReturned;           // abort(), any thread -> drain
    private volatile boolean cancelSeen;              // the stage's dependent -> drain

    @Override
    public void open() {
    }

    @Override
    public boolean writeFully(ByteBuffer[] items, int offset, int count) {
        if (abortReturned) {
            writesAfterAbort.incrementAndGet();
        }
        if (cancelSeen) {
            writesAfterCancelSeen.incrementAndGet();
        }
        int written = 0;
        for (int i = offset; i < offset + count; i++) {
            written += items[i].remaining();
            items[i].position(items[i].limit());
        }
        bytes += written;
        return true;
    }

    @Override
    public void force() {
    }

    @Override
    public void close() {
        closes.incrementAndGet();
    }

    @Override
    public void abort() {
        abortReturned = true;
    }

    /** Called by a dependent of the stage that found it cancelled. */
    void cancelSeen() {
        cancelSeen = true;
    }

    int closes() {
        return closes.get();
    }

    int bytes() {
        return bytes;
    }

    int writesAfterAbort() {
        return writesAfterAbort.get();
    }

    int writesAfterCancelSeen() {
        return writesAfterCancelSeen.get();
    }
}
