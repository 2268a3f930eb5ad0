package io.sluice.s3.internal;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * The memory of one upload's parts: heap blocks of {@value #BLOCK_BYTES} bytes, taken one at a time
 * as bytes arrive to fill them and recycled when their part has been sent, so a part holds only the
 * bytes it received (rounded up to a block), never its whole size ahead. Drain-confined.
 *
 * <p>The bound (O1): the blocks alive, in parts and free, are at most {@code parts * partSize}
 * bytes, for the {@code parts} the upload may hold at once and the current part size (which never
 * decreases). It holds because
 * <ul>
 *   <li>a part's blocks add up to at most its size: all are {@value #BLOCK_BYTES} bytes but its
 *       last, which is taken with exactly the bytes the part still lacks ({@link #take});</li>
 *   <li>a full block is allocated only when none is free, so the blocks alive are then exactly those
 *       in parts; a short last block, allocated while full ones are free, first drops a free one
 *       (larger), so it never adds to the total;</li>
 *   <li>short blocks are dropped when their part ends, never kept free, so every free block fits
 *       any part.</li>
 * </ul>
 */
final class PartBuffers {

    /** The size of a block: also the most a small body (or the start of a part) costs. */
    static final int BLOCK_BYTES = 256 * 1024;

    private final ArrayDeque<ByteBuffer> free = new ArrayDeque<>(); // full-size blocks not in any part
    private long retainedBytes; // capacities of the blocks alive: in parts and free
    private volatile long peakRetainedBytes; // drain -> tests

    /** A cleared block for a part that lacks {@code missingBytes} (at least 1): full size, or exactly what is missing. */
    ByteBuffer take(long missingBytes) {
        if (missingBytes >= BLOCK_BYTES) {
            ByteBuffer block = free.poll();
            return block != null ? block : allocate(BLOCK_BYTES);
        }
        ByteBuffer larger = free.poll();
        if (larger != null) {
            retainedBytes -= larger.capacity(); // dropped: the short block takes its place, smaller
        }
        return allocate((int) missingBytes);
    }

    /** Takes back a block whose part has ended: full ones are kept for reuse, short ones dropped. */
    void giveBack(ByteBuffer block) {
        if (block.capacity() == BLOCK_BYTES) {
            block.clear();
            free.add(block);
        } else {
            retainedBytes -= block.capacity();
        }
    }

    /** Drops every block: the upload has ended, and no call still reads a block. */
    void clear() {
        free.clear();
        retainedBytes = 0;
    }

    /** The capacities of the blocks alive now. */
    long retainedBytes() {
        return retainedBytes;
    }

    /** The most bytes of blocks alive at once so far. */
    long peakRetainedBytes() {
        return peakRetainedBytes;
    }

    private ByteBuffer allocate(int capacity) {
        retainedBytes += capacity;
        if (retainedBytes > peakRetainedBytes) {
            peakRetainedBytes = retainedBytes;
        }
        return ByteBuffer.allocate(capacity);
    }
}
