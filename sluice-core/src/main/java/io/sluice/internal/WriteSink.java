package io.sluice.internal;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Where a writer's bytes go. Drain-confined, except {@link #abort()}.
 */
public interface WriteSink {

    /** Opens the target; called on the drain before the first request. */
    void open() throws IOException;

    /**
     * Writes all remaining bytes of {@code items[offset .. offset + count)} (gathering where the
     * target allows), waiting without spinning if the target is not ready.
     *
     * @return false if the write stopped because the operation was cancelled
     */
    boolean writeFully(ByteBuffer[] items, int offset, int count) throws IOException;

    /** Forces written data and metadata to the device (or flushes a stream). */
    void force() throws IOException;

    /**
     * Makes a successful write final, for sinks where that is a separate step (an atomic replace
     * renames its temporary file over the target here). To be called on the success path only,
     * after {@link #force()} (with sync) and before {@link #close()}; a {@code close()} without a
     * preceding commit then means the write failed or was cancelled. The default does nothing.
     */
    default void commit() throws IOException {
    }

    /** Closes the target; idempotent. */
    void close() throws IOException;

    /**
     * Called from any thread on cancellation: unblocks a write blocked in the target where the
     * target allows (an interruptible channel is closed). The drain still runs {@link #close()}.
     */
    default void abort() {
    }
}
