package io.sluice.internal.read;

import io.sluice.internal.ChunkArena;

import java.nio.ByteBuffer;
import java.util.function.UnaryOperator;

/**
 * Heap chunks the subscriber keeps: each emitted chunk is a buffer this class never touches again.
 * A read that filled at most half of its buffer (a pipe, socket or stream emits what one read
 * returned) is copied out into a buffer of its own size, so a small chunk does not pin a whole
 * chunk's array downstream (where a writer's byte cap counts only its bytes), and the read buffer
 * is kept for the next read. Drain-confined.
 *
 * <p>The same chunks serve an arena that keeps no buffers ({@link ChunkArena#pooled()} false, a
 * shared pool whose chunk size is beyond its whole budget): {@link #lentFrom} lends each emitted
 * chunk unpooled, a heap buffer of its own that is garbage once given back, as the arena's overflow
 * chunks are. Not a direct one: direct memory is freed only when the collector finds its buffer,
 * so a direct buffer per chunk of such a size could exhaust it between collections.
 */
final class OwnedChunks implements ReadBuffers {

    private final int chunkSizeBytes;
    private final UnaryOperator<ByteBuffer> emitted; // the drain: what an emitted chunk becomes (owned: itself)
    private ByteBuffer spare; // drain-confined: a read buffer not emitted, for the next read; null: none

    OwnedChunks(int chunkSizeBytes) {
        this(chunkSizeBytes, UnaryOperator.identity());
    }

    private OwnedChunks(int chunkSizeBytes, UnaryOperator<ByteBuffer> emitted) {
        this.chunkSizeBytes = chunkSizeBytes;
        this.emitted = emitted;
    }

    /** Chunks lent, unpooled, from {@code arena}, which keeps no buffers; only emitted chunks are lent. */
    static OwnedChunks lentFrom(ChunkArena arena, int chunkSizeBytes) {
        return new OwnedChunks(chunkSizeBytes, arena::lendUnpooled);
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
            return emitted.apply(read); // at most twice its bytes: emitted as it is, no copy
        }
        spare = read;
        return n == 0 ? null : emitted.apply(ByteBuffer.allocate(n).put(read).flip());
    }

    @Override
    public void unused(ByteBuffer read) {
        spare = read; // never emitted, so never lent: nothing to give back
    }
}
