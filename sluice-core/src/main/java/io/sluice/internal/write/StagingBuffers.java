package io.sluice.internal.write;

import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Two small shared pools of staging buffers, where a batch of small items is copied so that it
 * costs one system call per {@link #STAGING_BYTES} instead of one per item.
 * <ul>
 *   <li>{@link #DIRECT}, for channels: writing many heap buffers with one gathering write makes the
 *       JDK take one temporary direct buffer per item from a per-thread cache it scans linearly
 *       (quadratic in the batch) and copy each item; copying the items into one pooled direct buffer
 *       instead costs the same single copy.</li>
 *   <li>{@link #HEAP}, for {@code OutputStream}s, which have no gathering write: one
 *       {@code write(byte[])} per staged buffer instead of one per item.</li>
 * </ul>
 *
 * <p>Memory held per pool: at most {@link #POOL_LIMIT} idle buffers plus one per write whose pass
 * is running (a channel sink gives its buffer back before the pass ends: {@code ChannelSink}'s
 * ST3). Any thread may take and give.
 */
final class StagingBuffers {

    static final int STAGING_BYTES = 256 * 1024;
    static final int POOL_LIMIT = 16;

    /** Direct staging buffers, for channel writes of heap items. */
    static final StagingBuffers DIRECT = new StagingBuffers(true);
    /** Heap staging buffers (with an accessible array), for stream writes of small items. */
    static final StagingBuffers HEAP = new StagingBuffers(false);

    private final boolean direct;
    private final ConcurrentLinkedDeque<ByteBuffer> idle = new ConcurrentLinkedDeque<>(); // any thread
    private final AtomicInteger idleCount = new AtomicInteger(); // any thread
    private final AtomicInteger taken = new AtomicInteger(); // any thread: buffers out of the pool now

    private StagingBuffers(boolean direct) {
        this.direct = direct;
    }

    /** A cleared staging buffer: pooled if one is idle, else new. */
    ByteBuffer take() {
        taken.incrementAndGet();
        ByteBuffer buffer = idle.pollFirst();
        if (buffer == null) {
            return direct ? ByteBuffer.allocateDirect(STAGING_BYTES) : ByteBuffer.allocate(STAGING_BYTES);
        }
        idleCount.decrementAndGet();
        buffer.clear();
        return buffer;
    }

    /** Returns a buffer taken with {@link #take()}; dropped (left to the GC) if the pool is full. */
    void give(ByteBuffer buffer) {
        taken.decrementAndGet();
        if (idleCount.incrementAndGet() <= POOL_LIMIT) {
            idle.offerFirst(buffer);
        } else {
            idleCount.decrementAndGet();
        }
    }

    /** Buffers taken and not yet given back: at most one per running pass of a write (ChannelSink's ST3). */
    int taken() {
        return taken.get();
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

    /** The heap buffers in a row in {@code items[from..end)}, from {@code from} on: a run worth staging for a channel when two or more. */
    static int heapRun(ByteBuffer[] items, int from, int end) {
        int next = from;
        while (next < end && !items[next].isDirect()) {
            next++;
        }
        return next - from;
    }
}
