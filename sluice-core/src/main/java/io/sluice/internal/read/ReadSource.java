package io.sluice.internal.read;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;

/** Where a read's bytes come from. Called by the read's drain only, except {@link #abort()}. */
public interface ReadSource extends Closeable {

    /** Opens a source; called on the drain at the first request (R3 in {@link ReadSubscription}). */
    @FunctionalInterface
    interface Opener {
        /**
         * Opens the source of one read.
         *
         * @param cancelled tells a source that waits for readiness that the read was cancelled; the
         *     drain asks it
         */
        ReadSource open(java.util.function.BooleanSupplier cancelled) throws IOException;
    }

    /**
     * A cheap precondition (no resource held), run by the drain before any request (R8 in
     * {@link ReadSubscription}): a publisher that cannot serve (a missing file, a single-use source
     * already taken) says so at once instead of waiting for demand a subscriber may never send. A
     * read runs it when its {@link Opener} is also a {@code Check}: one object for both, as a
     * file's range is.
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
     * Whether a chunk is read until full before it is emitted (R10 in {@link ReadSubscription}):
     * true only for a source whose read returns short at its end alone (a file), so that no read
     * waits for bytes a peer sends only after an answer. The default, {@code false}, has each
     * read's bytes emitted at once.
     */
    default boolean fillsChunks() {
        return false;
    }

    /**
     * Bytes left at most (the range still to read), or -1 when unknown (an open-ended range). The
     * source may end sooner, which {@link #read} reports with -1; the bound sizes the last chunk to
     * the range and ends the read without one more read just to see the end.
     */
    long remaining();

    /** Closes the source; idempotent. */
    @Override
    void close() throws IOException;

    /**
     * Called by {@code cancel()}, from any thread, even while the drain is in {@link #read} or
     * {@link #close()}: unblocks a read that waits on a stalled peer, where the source allows it
     * (R9 in {@link ReadSubscription}). The drain still runs {@link #close()} afterwards. Must
     * return promptly (§3.5). The default does nothing: a source whose reads never wait on a peer
     * (a file) is closed by the drain's next pass.
     */
    default void abort() {}
}
