package io.sluice.internal.write;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Where a writer's bytes go. Drain-confined, except {@link #abort()}, which may run on another
 * thread concurrently with any drain call.
 */
public interface WriteSink {

    /**
     * Opens the target; called on the drain before the first request.
     *
     * @param stop this write's cancellation, for a sink that waits inside {@link #writeFully}
     *     (for a non-blocking channel's readiness) to check while it waits
     */
    void open(Stop stop) throws IOException;

    /**
     * Takes all remaining bytes of {@code items[offset .. offset + count)}: writes them (gathering
     * where the target allows), waiting without spinning if the target is not ready, or copies them
     * into a buffer of the sink's, written when full or by {@link #flush()}. The items are the
     * caller's again when it returns.
     *
     * @return false if the write stopped because the operation was cancelled
     */
    boolean writeFully(ByteBuffer[] items, int offset, int count) throws IOException;

    /**
     * Writes what earlier {@link #writeFully} calls took but held back (a sink that stages small
     * items keeps a partly filled staging buffer until it is full or flushed). The writer calls it
     * before each pass ends and before the write ends well; {@link #close()} drops what is held.
     * The default holds nothing back.
     *
     * @return false if the write stopped because the operation was cancelled
     */
    default boolean flush() throws IOException {
        return true;
    }

    /** The bytes earlier {@link #writeFully} calls took and this sink still holds back; 0 after {@link #flush()}. */
    default long stagedBytes() {
        return 0;
    }

    /** Forces written data and metadata to the device (or flushes a stream). */
    void force() throws IOException;

    /**
     * Makes a successful write final, for sinks where that is a separate step (an atomic replace
     * renames its temporary file over the target here). To be called on the success path only,
     * after {@link #force()} (with sync) and before {@link #close()}; a {@code close()} without a
     * preceding commit then means the write failed or was cancelled. The default does nothing.
     */
    default void commit() throws IOException {}

    /** Closes the target; idempotent, also after {@link #abort()}. */
    void close() throws IOException;

    /**
     * Ends the write from outside: called from the thread that completes the stage from outside
     * ({@code cancel}, {@code complete}, {@code orTimeout} ...), before the stage's dependents run;
     * a second call does nothing. For a file sink, when it returns the channel is closed and no
     * further byte of this write reaches the file: not a write, not a force, not an open
     * ({@code TRUNCATE_EXISTING} or {@code CREATE}) that had not started. It may wait for an open
     * or one system call already in flight on the channel (a {@code FileChannel}'s close waits
     * for a {@code write}, {@code force} or {@code transferTo} in flight on it, so this can take
     * as long as an {@code fsync}), never for the drain's work beyond that call. Afterwards the
     * drain's {@link #writeFully} returns {@code false} or throws, {@link #force()} and
     * {@link #commit()} throw or do nothing, and {@link #close()} only releases what is left.
     * What holds for a sink over another channel is said by {@link ChannelSink}. The default
     * does nothing.
     */
    default void abort() {}

    /** Whether a write was told to stop (cancelled from outside, or failed); any thread may ask. */
    @FunctionalInterface
    interface Stop {

        /** Never stops: for a sink used outside a writer. */
        Stop NEVER = () -> false;

        /** Whether the write has been told to stop. */
        boolean requested();
    }
}
