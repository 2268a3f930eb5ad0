package io.sluice.internal;

import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small shared pool of direct staging buffers. Writing many heap buffers with one gathering
 * write makes the JDK take one temporary direct buffer per item from a per-thread cache it scans
 * linearly (quadratic in the batch) and copy each item; copying the items into one pooled direct
 * buffer instead costs the same single copy and one system call per {@link #STAGING_BYTES}.
 *
 * <p>Direct memory held: at most {@link #POOL_LIMIT} idle buffers plus one per write in progress.
 * Any thread may take and give.
 */
final class DirectStaging {

    static final int STAGING_BYTES = 256 * 1024;
    static final int POOL_LIMIT = 16;

    private static final ConcurrentLinkedDeque<ByteBuffer> IDLE = new ConcurrentLinkedDeque<>();
    private static final AtomicInteger IDLE_COUNT = new AtomicInteger();

    private DirectStaging() {
    }

    /** A cleared staging buffer: pooled if one is idle, else new. */
    static ByteBuffer take() {
        ByteBuffer buffer = IDLE.pollFirst();
        if (buffer == null) {
            return ByteBuffer.allocateDirect(STAGING_BYTES);
        }
        IDLE_COUNT.decrementAndGet();
        buffer.clear();
        return buffer;
    }

    /** Returns a buffer taken with {@link #take()}; dropped (left to the GC) if the pool is full. */
    static void give(ByteBuffer buffer) {
        if (IDLE_COUNT.incrementAndGet() <= POOL_LIMIT) {
            IDLE.offerFirst(buffer);
        } else {
            IDLE_COUNT.decrementAndGet();
        }
    }

    /**
     * Copies bytes from {@code items[index..end)} into {@code staging} until it is full or the
     * items are used up; a partly copied item keeps its position past what was copied.
     *
     * @return the index of the first item not fully copied
     */
    static int fill(ByteBuffer staging, ByteBuffer[] items, int index, int end) {
        int next = index;
        while (next < end && staging.hasRemaining()) {
            ByteBuffer item = items[next];
            int room = staging.remaining();
            if (item.remaining() <= room) {
                staging.put(item);
                next++;
            } else {
                int start = item.position();
                staging.put(item.duplicate().limit(start + room));
                item.position(start + room);
            }
        }
        return next;
    }

    /** Whether every item is a heap buffer with more than one item: staging pays off. */
    static boolean worthStaging(ByteBuffer[] items, int offset, int count) {
        if (count < 2) {
            return false;
        }
        for (int i = offset; i < offset + count; i++) {
            if (items[i].isDirect()) {
                return false;
            }
        }
        return true;
    }
}
