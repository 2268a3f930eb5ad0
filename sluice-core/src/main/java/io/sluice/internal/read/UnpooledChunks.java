package io.sluice.internal.read;

import io.sluice.internal.ChunkArena;
import java.nio.ByteBuffer;

/**
 * Chunks lent from an arena that keeps no buffers ({@link ChunkArena#pooled()} false): each is a
 * heap buffer of its own, garbage once given back, as the arena's overflow chunks are: direct
 * memory is freed only when the collector finds its buffer, so a direct buffer per chunk of a size
 * beyond the pool's whole budget could exhaust it between collections. As with {@link OwnedChunks},
 * a read that filled more than half of its buffer (a file's reads fill theirs) is lent as it is,
 * with no copy; one that filled at most half (a pipe, socket or stream returns what it has) is
 * copied out into a chunk of its own size, so a small chunk never holds a chunk size of memory downstream, and the
 * read buffer is kept for the next read. One not emitted is kept the same way. Drain-confined.
 */
final class UnpooledChunks implements ReadBuffers {

    private final ChunkArena arena;
    private final int chunkSizeBytes;
    private ByteBuffer spare;                 // drain-confined: a read buffer not emitted, never lent; null: none

    UnpooledChunks(ChunkArena arena, int chunkSizeBytes) {
        this.arena = arena;
        this.chunkSizeBytes = chunkSizeBytes;
    }

    @Override
    public ByteBuffer forRead(long remaining) {
        int size = remaining < 0 ? chunkSizeBytes : (int) Math.min(chunkSizeBytes, remaining);
        ByteBuffer buffer = spare;
        if (buffer != null && buffer.capacity() >= size) {
            spare = null;
            buffer.clear().limit(size);
            return buffer;
        }
        return ByteBuffer.allocate(size);
    }

    @Override
    public ByteBuffer toEmit(ByteBuffer read) {
        read.flip();
        int n = read.remaining();
        if (n > read.capacity() / 2) {
            return arena.lendUnpooled(read);  // at most twice its bytes: lent as it is, and not ours any more
        }
        spare = read;
        if (n == 0) {
            return null;
        }
        ByteBuffer copy = ByteBuffer.allocate(n).put(read).flip();
        return arena.lendUnpooled(copy);
    }

    @Override
    public void unused(ByteBuffer read) {
        spare = read;                         // never lent: nothing to give back
    }
}
