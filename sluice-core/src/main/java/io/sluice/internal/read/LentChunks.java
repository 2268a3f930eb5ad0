package io.sluice.internal.read;

import io.sluice.internal.ChunkArena;
import io.sluice.internal.Loans;

import java.nio.ByteBuffer;

/**
 * Chunks lent from a {@link ChunkArena}: read into in place (a direct buffer takes a positional
 * read with no copy) and emitted as they are, however few bytes a read returned; one not emitted
 * goes back at once (R11 in {@link ReadSubscription}). No mutable state; called by the drain.
 */
final class LentChunks implements ReadBuffers {

    private final ChunkArena arena;
    private final int chunkSizeBytes;

    LentChunks(ChunkArena arena, int chunkSizeBytes) {
        this.arena = arena;
        this.chunkSizeBytes = chunkSizeBytes;
    }

    @Override
    public ByteBuffer forRead(long remaining) {
        return arena.lend(remaining < 0 ? chunkSizeBytes : (int) Math.min(chunkSizeBytes, remaining));
    }

    @Override
    public ByteBuffer toEmit(ByteBuffer read) {
        read.flip();
        if (read.hasRemaining()) {
            return read;
        }
        Loans.giveBack(read);
        return null;
    }

    @Override
    public void unused(ByteBuffer read) {
        Loans.giveBack(read);
    }
}
