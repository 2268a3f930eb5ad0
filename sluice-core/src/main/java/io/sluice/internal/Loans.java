package io.sluice.internal;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;

/**
 * Every chunk out on loan in this JVM, found by the identity of the buffer object lent: the one
 * place that knows whether a buffer may be given back, and to which {@link ChunkArena}.
 *
 * <p>Each loan is a fresh buffer object (a view of an arena's memory), so a chunk given back twice,
 * a chunk that was never lent, or a view derived from a lent chunk is not found, and refused,
 * even when the same memory is out on a newer loan. The table holds chunks weakly: a chunk never
 * given back becomes garbage like any buffer, and its entry is dropped once the collector finds it.
 *
 * <p>A loan comes back to an arena's slot, or, for a buffer its owner lent with
 * {@link #lend(ByteBuffer, Runnable)}, to the owner's callback, run once by the giver.
 *
 * <p>Threading: every method may be called from any thread; the table is guarded by {@link #LOCK}.
 */
public final class Loans {

    private static final Object LOCK = new Object();
    private static final ReferenceQueue<ByteBuffer> COLLECTED = new ReferenceQueue<>();   // the collector enqueues; polled under LOCK

    private static Loan[] table = new Loan[256];   // guarded by LOCK; chains by identity hash
    private static int size;                        // guarded by LOCK; entries, collected ones included
    private static volatile int out;                // size, written under LOCK -> any thread, lock-free

    /** One chunk on loan: weakly held, with the arena and slot its memory returns to. */
    static final class Loan extends WeakReference<ByteBuffer> {
        final int hash;                             // identity hash of the chunk
        final ChunkArena arena;                     // takes the chunk back; null: an owner's buffer
        final ChunkArena.Slot slot;                 // null: a heap chunk lent past the arena's bound, or an unpooled one
        final Runnable onGiveBack;                  // run by the giver when arena is null
        Loan next;                                  // guarded by LOCK

        Loan(ByteBuffer chunk, int hash, ChunkArena arena, ChunkArena.Slot slot, Runnable onGiveBack) {
            super(chunk, COLLECTED);
            this.hash = hash;
            this.arena = arena;
            this.slot = slot;
            this.onGiveBack = onGiveBack;
        }
    }

    private Loans() {
    }

    /** Records {@code chunk} as lent from {@code arena}'s {@code slot}. */
    static void lend(ByteBuffer chunk, ChunkArena arena, ChunkArena.Slot slot) {
        record(new Loan(chunk, System.identityHashCode(chunk), arena, slot, null));
    }

    /**
     * Records {@code view}, a buffer object nobody else holds, as lent by its owner: giving it back
     * runs {@code onGiveBack} once, on the giver's thread.
     */
    public static void lend(ByteBuffer view, Runnable onGiveBack) {
        record(new Loan(view, System.identityHashCode(view), null, null, onGiveBack));
    }

    private static void record(Loan loan) {
        synchronized (LOCK) {
            expungeCollected();
            if (size >= table.length - (table.length >> 2)) {
                resize();
            }
            int index = loan.hash & (table.length - 1);
            loan.next = table[index];
            table[index] = loan;
            out = ++size;
        }
    }

    /**
     * Takes {@code chunk} back to its arena, or runs its owner's callback, if it is out on loan.
     *
     * @return false if it is not: never lent, or given back already
     */
    public static boolean giveBack(ByteBuffer chunk) {
        if (out == 0) {
            return false;
        }
        Loan loan = remove(chunk);
        if (loan == null) {
            return false;
        }
        if (loan.arena != null) {
            loan.arena.takeBack(loan.slot, chunk);
        } else {
            loan.onGiveBack.run();
        }
        return true;
    }

    /** Whether {@code chunk} is out on loan now. */
    public static boolean isLent(ByteBuffer chunk) {
        if (out == 0) {
            return false;
        }
        int hash = System.identityHashCode(chunk);
        synchronized (LOCK) {
            for (Loan loan = table[hash & (table.length - 1)]; loan != null; loan = loan.next) {
                if (loan.get() == chunk) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether any chunk is out on loan (collected ones not yet found included): a cheap filter. */
    public static boolean anyOut() {
        return out != 0;
    }

    private static Loan remove(ByteBuffer chunk) {
        int hash = System.identityHashCode(chunk);
        synchronized (LOCK) {
            int index = hash & (table.length - 1);
            Loan previous = null;
            for (Loan loan = table[index]; loan != null; previous = loan, loan = loan.next) {
                if (loan.get() == chunk) {
                    unlink(index, previous, loan);
                    loan.clear();                   // not enqueued any more: expungeCollected skips it
                    return loan;
                }
            }
        }
        return null;
    }

    private static void expungeCollected() {
        for (Reference<? extends ByteBuffer> ref; (ref = COLLECTED.poll()) != null; ) {
            Loan dead = (Loan) ref;
            int index = dead.hash & (table.length - 1);
            Loan previous = null;
            for (Loan loan = table[index]; loan != null; previous = loan, loan = loan.next) {
                if (loan == dead) {
                    unlink(index, previous, loan);
                    break;
                }
            }
        }
    }

    private static void unlink(int index, Loan previous, Loan loan) {
        if (previous == null) {
            table[index] = loan.next;
        } else {
            previous.next = loan.next;
        }
        loan.next = null;
        out = --size;
    }

    private static void resize() {
        Loan[] old = table;
        Loan[] grown = new Loan[old.length * 2];
        for (Loan head : old) {
            for (Loan loan = head; loan != null; ) {
                Loan next = loan.next;
                int index = loan.hash & (grown.length - 1);
                loan.next = grown[index];
                grown[index] = loan;
                loan = next;
            }
        }
        table = grown;
    }
}
