package io.sluice.internal.read;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;

/** Where a read publisher's bytes come from. Drain-confined: one thread at a time. */
public interface ReadSource extends Closeable {

    /** Opens a source; called on the drain at the first request. */
    @FunctionalInterface
    interface Opener {
        /**
         * @param cancelled tells a source that waits for readiness that the read was cancelled
         */
        ReadSource open(java.util.function.BooleanSupplier cancelled) throws IOException;
    }

    /**
     * A cheap precondition (no resource held) checked on the executor right after
     * {@code onSubscribe}, before any request: a publisher that cannot serve (a missing file, a
     * single-use source already taken) says so with {@code onError} at once, as §1.9 and §1.4
     * ask, instead of waiting for demand that a subscriber may never send.
     */
    @FunctionalInterface
    interface Check {
        void check() throws IOException;
    }

    /**
     * Reads into {@code dst} (at least one byte unless at the end; may block).
     *
     * @return the bytes read, or -1 at the end of the source or range
     */
    int read(ByteBuffer dst) throws IOException;

    /**
     * Whether a chunk is read until full before it is emitted (R10 in {@link ReadSubscription}).
     * A file's read returns short only at its end, so its chunks are filled: all full but the last.
     * A pipe, socket or stream returns what its peer has sent so far, and a second read could wait
     * for bytes the peer sends only after an answer: such a source (the default) has each read's
     * bytes emitted at once.
     */
    default boolean fillsChunks() {
        return false;
    }

    /** Bytes left at most (the range still to read), or -1 when unknown (open-ended streams, sockets). */
    long remaining();

    /** Closes the source; idempotent. */
    @Override
    void close() throws IOException;

    /**
     * Called from any thread when the read is cancelled: unblocks a {@link #read} that waits on a
     * stalled peer, where the source allows it (R9). The drain still runs {@link #close()}
     * afterwards. Must return promptly (§3.5). The default does nothing: a source whose reads
     * never wait on a peer (a file) is closed by the drain's next pass.
     */
    default void abort() {
    }
}
