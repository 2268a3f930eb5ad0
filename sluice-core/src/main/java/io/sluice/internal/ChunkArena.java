package io.sluice.internal;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicInteger;
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
 * <p>Threading: {@link #lend} and {@link #takeBack} may run on any threads at once, and no lock is
 * shared by all of them: a shared pool serves every lent read in the JVM, so its idle slots are
 * striped, in the manner of Okio's {@code SegmentPool}, by thread ({@link #MAX_STRIPES}). A slot
 * belongs to the stripe of the thread that first lent it and always comes back there, so a read's
 * drain and the writer giving its chunks back meet on one stripe's monitor, held for a deque
 * operation; a lend whose stripe is empty looks at the others' counts (volatile reads) and locks
 * only one that has a slot. The count of slots alive is an atomic bounded by a compare-and-set
 * (P2); the queue of collected memory is polled without a lock while it is empty.
 */
public final class ChunkArena {

    /** A slot of memory: weakly its buffer, strongly too while it is idle. */
    static final class Slot extends WeakReference<ByteBuffer> {
        final Stripe home; // where the slot waits while idle
        ByteBuffer
                idle; // written under home by the giver, taken by the lender that polled the slot; null while lent (P3)

        Slot(ByteBuffer memory, ReferenceQueue<ByteBuffer> queue, Stripe home) {
            super(memory, queue);
            this.home = home;
        }
    }

    /** Idle slots of one stripe, last in, first out. */
    private static final class Stripe {
        final ArrayDeque<Slot> idle = new ArrayDeque<>(); // guarded by this
        volatile int size; // idle.size(), written under this -> lenders looking for a slot
    }

    /**
     * Stripes an arena has at most: one per thread of a busy pool rather than per core. With a
     * stripe per core, dozens of threads lending on a few cores share each monitor, and one
     * preempted while it holds it (a deque operation is short, but a time slice can end inside
     * it) stalls the others of its stripe until it runs again; with this many, few threads share
     * one. Twice the cores where that is more.
     */
    static final int MAX_STRIPES =
            Math.max(64, Integer.highestOneBit(Math.max(1, Runtime.getRuntime().availableProcessors() * 2 - 1)));

    private final int chunkSizeBytes;
    private final int maxChunks;
    private final ReferenceQueue<ByteBuffer> collected =
            new ReferenceQueue<>(); // the collector enqueues; any lender polls (P3)
    private final Stripe[] stripes; // a power of two of them, at most maxChunks
    private final AtomicInteger allocated = new AtomicInteger(); // any thread; never above maxChunks (P2)
    private final LongAdder lentCount = new LongAdder(); // any thread
    private final LongAdder overflowCount = new LongAdder(); // any thread

    public ChunkArena(int chunkSizeBytes, int maxChunks) {
        this.chunkSizeBytes = chunkSizeBytes;
        this.maxChunks = maxChunks;
        this.stripes = new Stripe[Math.min(MAX_STRIPES, Integer.highestOneBit(Math.max(1, maxChunks)))];
        for (int i = 0; i < stripes.length; i++) {
            stripes[i] = new Stripe();
        }
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
        countCollected();
        Stripe home = home();
        Slot slot = takeIdle(home);
        ByteBuffer memory;
        if (slot != null) {
            memory = slot.idle;
            slot.idle = null; // P3: from here only the views hold the memory
        } else if (reserve()) {
            try {
                memory = ByteBuffer.allocateDirect(chunkSizeBytes);
            } catch (OutOfMemoryError e) {
                allocated.decrementAndGet();
                throw e;
            }
            slot = new Slot(memory, collected, home);
        } else {
            overflowCount.increment();
            return lendUnpooled(ByteBuffer.allocate(bytes));
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
            return; // a heap or unpooled chunk: garbage from here on
        }
        ByteBuffer memory = slot.get(); // alive: the chunk given back is a view of it
        Reference.reachabilityFence(chunk);
        Stripe home = slot.home;
        synchronized (home) {
            slot.idle = memory;
            home.idle.addLast(slot);
            home.size = home.idle.size();
        }
    }

    /** The calling thread's stripe: threads spread over the stripes by their ids. */
    private Stripe home() {
        long id = Thread.currentThread().getId();
        return stripes[(int) ((id * 0x9E3779B97F4A7C15L) >>> 40) & (stripes.length - 1)];
    }

    /** An idle slot, taken out of its stripe: {@code home}'s first, then any other's; null if none is idle. */
    private Slot takeIdle(Stripe home) {
        Slot slot = poll(home);
        for (int i = 0; slot == null && i < stripes.length; i++) {
            Stripe other = stripes[i];
            if (other != home && other.size > 0) {
                slot = poll(other);
            }
        }
        return slot;
    }

    private static Slot poll(Stripe stripe) {
        synchronized (stripe) {
            Slot slot = stripe.idle.pollLast();
            stripe.size = stripe.idle.size();
            return slot;
        }
    }

    /** Counts one more slot alive, if that stays within {@code maxChunks} (P2). */
    private boolean reserve() {
        for (int now = allocated.get(); now < maxChunks; now = allocated.get()) {
            if (allocated.compareAndSet(now, now + 1)) {
                return true;
            }
        }
        return false;
    }

    /** Frees the count of slots whose memory the collector found unreachable (P3). */
    private void countCollected() {
        while (collected.poll() != null) {
            allocated.decrementAndGet();
        }
    }

    /** Slots with memory alive now, idle or lent. */
    public int allocated() {
        countCollected();
        return allocated.get();
    }

    /** Slots idle now. */
    public int idle() {
        int idle = 0;
        for (Stripe stripe : stripes) {
            idle += stripe.size;
        }
        return idle;
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
