package io.sluice.internal.read;

import java.nio.ByteBuffer;

/** The buffers one read reads into and emits. Called by the read's drain only. */
interface ReadBuffers {

    /**
     * A buffer to read the next chunk into, position 0: the chunk size, or {@code remaining} bytes
     * if that is known (not negative) and smaller.
     */
    ByteBuffer forRead(long remaining);

    /**
     * The chunk to emit from a buffer {@link #forRead} gave and a read filled, ready to read from;
     * {@code null} if nothing was read (no empty chunk is ever emitted).
     */
    ByteBuffer toEmit(ByteBuffer read);

    /** A buffer {@link #forRead} gave that will not be emitted (the read failed or was cancelled). */
    void unused(ByteBuffer read);
}
