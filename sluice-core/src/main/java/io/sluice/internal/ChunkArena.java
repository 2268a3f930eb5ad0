package io.sluice.internal;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.LongAdder;

/**
 * The memory behind a {@code ChunkPool}: at most {@code maxChunks} direct buffers of one size,
 * each either idle here or out on loan as a fresh view that {@link Loans} records. An arena of no
 * buffers ({@code maxChunks} 0, a shared pool whose chunk size is larger than its budget) keeps
 * nothing: it lends each chunk as a heap buffer of its own ({@link #lendUnpooled}), as it lends
 * overflow chunks, so direct memory stays within every arena's bound.
 *
 * <p>Invariants:
 * <ul>
 *   <li>P1: memory is lent only from an idle slot or a new one; a slot becomes idle only when its
 *       chunk is given back ({@link Loans} finds that exact view) or when the collector finds
 *       its memory unreachable (no view of it is left anywhere). So no lent chunk, and no view a
 *       holder derived from it, is ever overwritten by another loan.</li>
 *   <li>P2: {@code allocated <= maxChunks}: slots whose memory is alive, idle or lent. When all
 *       are lent, a read gets a heap chunk instead (counted in {@link #overflowed()}), which is
 *       ordinary garbage once given back or dropped: direct memory stays within the bound,
 *       whatever consumers do. An unpooled chunk is no slot: given back or dropped, it is
 *       garbage, so the arena holds no memory of it.</li>
 *   <li>P3: a slot's memory is held strongly only while idle ({@link Slot#idle}); while lent, only
 *       the views out there hold it, so a chunk never given back is collected like any buffer,
 *       and its slot is counted free when {@link #collected} reports it.</li>
 * </ul>
 *
 * <p>Threading: {@link #lend} and {@link #takeBack} may run on any threads at once; the idle
 * stack and the count are guarded by {@code this}.
 */
public final class ChunkArena {

    /** A slot of memory: weakly its buffer, strongly too while it is idle. */
    static final class Slot extends WeakReference<ByteBuffer> {
        ByteBuffer idle;                            // guarded by the arena; null while lent (P3)

        Slot(ByteBuffer memory, ReferenceQueue<ByteBuffer> queue) {
            super(memory, queue);
        }
    }

    private final int chunkSizeBytes;
    private final int maxChunks;
    private final ReferenceQueue<ByteBuffer> collected = new ReferenceQueue<>();   // the collector enqueues; polled under this (P3)
    private final ArrayDeque<Slot> idle = new ArrayDeque<>();   // guarded by this; last in, first out
    private int allocated;                                       // guarded by this (P2)
    private final LongAdder lentCount = new LongAdder();        // any thread
    private final LongAdder overflowCount = new LongAdder();    // any thread

    public ChunkArena(int chunkSizeBytes, int maxChunks) {
        this.chunkSizeBytes = chunkSizeBytes;
        this.maxChunks = maxChunks;
    }

    public int chunkSizeBytes() {
        return chunkSizeBytes;
    }

    public int maxChunks() {
        return maxChunks;
    }

    /** Whether the arena keeps buffers: false for one that lends every chunk unpooled. */
    public boolean pooled() {
        return maxChunks > 0;
    }

    /**
     * Lends a chunk with position 0 and limit {@code bytes}: a direct buffer of the arena's memory,
     * or a heap buffer if every slot is lent (P2); from an arena that is not {@link #pooled()}, a
     * heap buffer of exactly {@code bytes}, unpooled.
     */
    public ByteBuffer lend(int bytes) {
        if (!pooled()) {
            return lendUnpooled(ByteBuffer.allocate(bytes));
        }
        Slot slot;
        ByteBuffer memory = null;
        boolean full = false;
        synchronized (this) {
            countCollected();
            slot = idle.pollLast();
            if (slot != null) {
                memory = slot.idle;
                slot.idle = null;
            } else if (allocated < maxChunks) {
                allocated++;
            } else {
                full = true;
            }
        }
        if (full) {
            overflowCount.increment();
            return lendUnpooled(ByteBuffer.allocate(bytes));
        }
        if (memory == null) {
            try {
                memory = ByteBuffer.allocateDirect(chunkSizeBytes);
            } catch (OutOfMemoryError e) {
                synchronized (this) {
                    allocated--;
                }
                throw e;
            }
            slot = new Slot(memory, collected);
        }
        ByteBuffer chunk = memory.duplicate().limit(bytes);
        Loans.lend(chunk, this, slot);
        lentCount.increment();
        return chunk;
    }

    /**
     * Lends {@code chunk} as it is, a buffer outside the arena's memory that nobody else holds: it
     * is garbage once given back or dropped (P2).
     */
    public ByteBuffer lendUnpooled(ByteBuffer chunk) {
        Loans.lend(chunk, this, null);
        lentCount.increment();
        return chunk;
    }

    /** A chunk {@link Loans} found on loan from here comes back; {@code slot} null for a heap or unpooled chunk. */
    void takeBack(Slot slot, ByteBuffer chunk) {
        if (slot == null) {
            return;                                 // a heap or unpooled chunk: garbage from here on
        }
        ByteBuffer memory = slot.get();             // alive: the chunk given back is a view of it
        Reference.reachabilityFence(chunk);
        synchronized (this) {
            slot.idle = memory;
            idle.addLast(slot);
        }
    }

    /** Frees the count of slots whose memory the collector found unreachable (P3). */
    private void countCollected() {
        while (collected.poll() != null) {
            allocated--;
        }
    }

    /** Slots with memory alive now, idle or lent. */
    public synchronized int allocated() {
        countCollected();
        return allocated;
    }

    /** Slots idle now. */
    public synchronized int idle() {
        return idle.size();
    }

    /** Chunks lent since creation, heap and unpooled ones included. */
    public long lent() {
        return lentCount.sum();
    }

    /** Heap chunks lent because every slot was out (P2). */
    public long overflowed() {
        return overflowCount.sum();
    }
}
