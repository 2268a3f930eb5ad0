package io.sluice.internal.read;

import io.sluice.internal.ChunkArena;

/**
 * Where a read publisher's chunks come from: fresh buffers each subscriber owns, or chunks lent from
 * an arena (unpooled ones from an arena that keeps none). Immutable: one per publisher, shared by its subscribing threads, each of which makes
 * its read's {@link ReadBuffers}.
 */
public final class ChunkSupply {

    private final int chunkSizeBytes;
    private final ChunkArena arena; // null: owned chunks
    private final LentChunks lentChunks; // every read's, having no state; null unless lent from a pooling arena

    private ChunkSupply(int chunkSizeBytes, ChunkArena arena) {
        this.chunkSizeBytes = chunkSizeBytes;
        this.arena = arena;
        this.lentChunks = arena != null && arena.pooled() ? new LentChunks(arena, chunkSizeBytes) : null;
    }

    /** Fresh heap chunks of at most {@code chunkSizeBytes}, the subscriber's to keep. */
    public static ChunkSupply owned(int chunkSizeBytes) {
        return new ChunkSupply(chunkSizeBytes, null);
    }

    /** Chunks of at most {@code chunkSizeBytes} lent from {@code arena}. */
    public static ChunkSupply lent(ChunkArena arena, int chunkSizeBytes) {
        if (chunkSizeBytes > arena.chunkSizeBytes()) {
            throw new IllegalArgumentException("chunk size " + chunkSizeBytes + " is larger than the pool's chunks of "
                    + arena.chunkSizeBytes() + " bytes");
        }
        return new ChunkSupply(chunkSizeBytes, arena);
    }

    ReadBuffers newBuffers() {
        if (arena == null) {
            return new OwnedChunks(chunkSizeBytes);
        }
        return lentChunks != null ? lentChunks : OwnedChunks.lentFrom(arena, chunkSizeBytes);
    }

    @Override
    public String toString() {
        return (arena == null ? "owned" : "lent") + " chunks of " + chunkSizeBytes + " bytes";
    }
}
