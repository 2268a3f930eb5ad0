package io.sluice.internal;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every chunk out on loan in this JVM, found by the identity of the buffer object lent: the one
 * place that knows whether a buffer may be given back, and to which {@link ChunkArena}.
 *
 * <p>Each loan is a fresh buffer object (a view of an arena's memory), so a chunk given back twice,
 * a chunk that was never lent, or a view derived from a lent chunk is not found, and refused,
 * even when the same memory is out on a newer loan. The table holds chunks weakly: a chunk never
 * given back becomes garbage like any buffer, and its entry is dropped once the collector finds it
 * and a later loan looks (reported as a leak with {@link LeakDetection} on).
 *
 * <p>A loan comes back to an arena's slot, or, for a buffer its owner lent with
 * {@link #lend(ByteBuffer, Runnable)}, to the owner's callback, run once by the giver.
 *
 * <p><b>Many cores.</b> The loans are spread over {@link #TABLES} {@link ConcurrentHashMap}s, the
 * table of a loan picked by its chunk's identity hash, each loan a weak reference found by that
 * hash. No count of the loans is read on any call: a map's count is cells that every thread
 * writing to the map updates, and reading it (as {@code isEmpty()} does) misses the cache on every
 * cell another core wrote, on every call. What each call shares with other threads:
 * <ul>
 *   <li>{@link #isLent} and {@link #touch}: a read of {@link #lentEver}, written once in the JVM's
 *       life, and, once anything was lent, a lock-free read of one bin of one table (volatile
 *       loads, no write), so any number of writers' {@code onNext} calls never contend.</li>
 *   <li>{@link #lend} and {@link #giveBack}: a CAS into an empty bin, or the monitor of the one
 *       bin the chunk's hash falls into, and the count of that one table. Two threads lending
 *       different chunks write the same line only when their chunks fall into the same table
 *       (one chance in {@link #TABLES} per call, at least four times the cores), and for a few
 *       loads then; no line is written by every thread.</li>
 *   <li>{@link #lend} also polls the queue of loans the collector found unreachable: a volatile
 *       read while it is empty; its lock is taken only when chunks were dropped without a
 *       give-back, which is a consumer's bug, not the steady state.</li>
 * </ul>
 * What still contends: a table's count and bins when two cores lend or give back chunks of the
 * same table at once, and, in an arena, the stripe of idle slots two threads pick (see
 * {@link ChunkArena}). No lock is taken by every thread.
 *
 * <p>Exactly one give-back wins: {@link ConcurrentHashMap#remove(Object)} returns the loan to
 * one caller only, under the bin's monitor; the others find nothing and are refused. The winner
 * clears the reference before the chunk can be unreachable (it holds the chunk), so a loan given
 * back is never reported as collected.
 *
 * <p>Threading: every method may be called from any thread; the tables and {@link #lentEver}
 * are the only shared state.
 */
public final class Loans {

    /** How many tables the loans are spread over: a power of two, at least four times the cores. */
    static final int TABLES =
            Math.max(16, Integer.highestOneBit(Runtime.getRuntime().availableProcessors() * 8 - 1));

    @SuppressWarnings("unchecked")
    private static final ConcurrentHashMap<Object, Loan>[] OUT =
            new ConcurrentHashMap[TABLES]; // any thread; keys: Loan, looked up by Probe; a loan in table(hash) only

    private static volatile boolean lentEver; // false until the first lend, then true for good
    private static final ReferenceQueue<ByteBuffer> COLLECTED =
            new ReferenceQueue<>(); // the collector enqueues; any lend polls

    /** One chunk on loan: weakly held, with the arena and slot its memory returns to. */
    static final class Loan extends WeakReference<ByteBuffer> {
        final int hash; // identity hash of the chunk
        final ChunkArena arena; // takes the chunk back; null: an owner's buffer
        final ChunkArena.Slot slot; // null: a heap chunk lent past the arena's bound, or an unpooled one
        final Runnable onGiveBack; // run by the giver when arena is null
        final LeakDetection.Record record; // where it was lent and last touched; null: detection off

        Loan(ByteBuffer chunk, ChunkArena arena, ChunkArena.Slot slot, Runnable onGiveBack) {
            super(chunk, COLLECTED);
            this.hash = System.identityHashCode(chunk);
            this.arena = arena;
            this.slot = slot;
            this.onGiveBack = onGiveBack;
            this.record = LeakDetection.ENABLED ? LeakDetection.record(chunk) : null;
        }

        @Override
        public int hashCode() {
            return hash;
        }

        /** Itself, or a probe for its chunk while the chunk is alive: never another loan. */
        @Override
        public boolean equals(Object other) {
            return other == this || other instanceof Probe probe && probe.chunk == get();
        }
    }

    /** A key to find the loan of {@code chunk}: equal to that loan only, as the loan is to it. */
    private static final class Probe {
        final ByteBuffer chunk; // never null

        Probe(ByteBuffer chunk) {
            this.chunk = chunk;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(chunk);
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Loan loan && loan.get() == chunk;
        }
    }

    static {
        for (int i = 0; i < TABLES; i++) {
            OUT[i] = new ConcurrentHashMap<>();
        }
    }

    private Loans() {}

    /** The table of the loans of chunks with identity hash {@code hash}: its high bits, the bins use the low ones. */
    private static ConcurrentHashMap<Object, Loan> table(int hash) {
        return OUT[(hash * 0x9E3779B9) >>> (Integer.SIZE - Integer.numberOfTrailingZeros(TABLES))];
    }

    /** Records {@code chunk} as lent from {@code arena}'s {@code slot}. */
    static void lend(ByteBuffer chunk, ChunkArena arena, ChunkArena.Slot slot) {
        record(new Loan(chunk, arena, slot, null));
    }

    /**
     * Records {@code view}, a buffer object nobody else holds, as lent by its owner: giving it back
     * runs {@code onGiveBack} once, on the giver's thread.
     */
    public static void lend(ByteBuffer view, Runnable onGiveBack) {
        record(new Loan(view, null, null, onGiveBack));
    }

    private static void record(Loan loan) {
        if (!lentEver) {
            lentEver = true; // once: every later lend only reads it
        }
        expungeCollected();
        table(loan.hash).put(loan, loan); // a fresh object: no loan equals it yet
    }

    /**
     * Takes {@code chunk} back to its arena, or runs its owner's callback, if it is out on loan.
     * Of any number of threads giving back the same chunk at once, one gets true.
     *
     * @return false if it is not: never lent, given back already, or a view of a lent chunk
     */
    public static boolean giveBack(ByteBuffer chunk) {
        if (!lentEver) {
            return false; // owned chunks cost no identity hash until a first loan
        }
        Probe probe = new Probe(chunk);
        Loan loan = table(probe.hashCode()).remove(probe);
        if (loan == null) {
            return false;
        }
        loan.clear(); // before chunk can be unreachable: never enqueued as a leak
        Reference.reachabilityFence(chunk);
        if (loan.arena != null) {
            loan.arena.takeBack(loan.slot, chunk);
        } else {
            loan.onGiveBack.run();
        }
        return true;
    }

    /** Whether {@code chunk} is out on loan now. */
    public static boolean isLent(ByteBuffer chunk) {
        if (!lentEver) {
            return false;
        }
        Probe probe = new Probe(chunk);
        return table(probe.hashCode()).get(probe) != null;
    }

    /**
     * Records {@code hint} and the caller's stack as where {@code chunk} was last touched, if leak
     * detection is on and the chunk is out on loan; otherwise does nothing.
     */
    public static void touch(ByteBuffer chunk, Object hint) {
        if (!LeakDetection.ENABLED) {
            return;
        }
        Probe probe = new Probe(chunk);
        Loan loan = table(probe.hashCode()).get(probe);
        if (loan != null) {
            loan.record.touched(hint);
        }
    }

    /** Loans in the tables now, collected ones not yet found included: reads every table's count, so never on a hot path. */
    static int size() {
        int size = 0;
        for (ConcurrentHashMap<Object, Loan> table : OUT) {
            size += table.size();
        }
        return size;
    }

    /** Drops the loans whose chunks the collector found, never given back, and reports them as leaks. */
    private static void expungeCollected() {
        for (Reference<? extends ByteBuffer> ref; (ref = COLLECTED.poll()) != null; ) {
            Loan dead = (Loan) ref;
            if (table(dead.hash).remove(dead) != null && dead.record != null) { // by identity: its chunk is gone
                LeakDetection.report(dead.record);
            }
        }
    }
}
