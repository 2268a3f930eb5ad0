package io.sluice.internal.read;

import java.nio.ByteBuffer;

/**
 * Heap chunks the subscriber keeps: each emitted chunk is a buffer this class never touches again.
 * A read that filled at most half of its buffer (a pipe, socket or stream emits what one read
 * returned) is copied out into a buffer of its own size, so a small chunk does not pin a whole
 * chunk's array downstream (where a writer's byte cap counts only its bytes), and the read buffer
 * is kept for the next read. Drain-confined.
 */
final class OwnedChunks implements ReadBuffers {

    private final int chunkSizeBytes;
    private ByteBuffer spare;                 // drain-confined: a read buffer not emitted, for the next read; null: none

    OwnedChunks(int chunkSizeBytes) {
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
            return read;                      // at most twice its bytes: emitted as it is, no copy
        }
        spare = read;
        return n == 0 ? null : ByteBuffer.allocate(n).put(read).flip();
    }

    @Override
    public void unused(ByteBuffer read) {
        spare = read;
    }
}
