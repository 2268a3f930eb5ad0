package io.sluice.stress;

import io.sluice.ChunkPool;
import io.sluice.internal.ChunkArena;
import io.sluice.internal.Loans;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;
import org.openjdk.jcstress.infra.results.III_Result;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link Loans} and {@link ChunkArena}: give-backs, lends and look-ups of the same chunk, or the
 * same memory, on two threads at once. Ownership is the chunk object, and exactly one give-back
 * of it wins (P1 in {@code ChunkArena}).
 */
public final class LoansStress {

    private LoansStress() {}

    /**
     * Two holders give back the same chunk at once: one wins, the other is refused, and the
     * owner's callback runs once.
     *
     * <p>Result: {@code first give-back won, second won, callbacks run}.
     */
    @JCStressTest
    @Outcome(
            id = {"1, 0, 1", "0, 1, 1"},
            expect = ACCEPTABLE,
            desc = "exactly one give-back wins; the callback runs once")
    @Outcome(expect = FORBIDDEN, desc = "both won, neither did, or the callback ran other than once")
    @State
    public static class TwoGiveBacks {
        final AtomicInteger callbacks = new AtomicInteger();
        final ByteBuffer chunk = ChunkPool.lend(ByteBuffer.allocate(4), callbacks::incrementAndGet);

        @Actor
        public void first(III_Result result) {
            result.r1 = Loans.giveBack(chunk) ? 1 : 0;
        }

        @Actor
        public void second(III_Result result) {
            result.r2 = Loans.giveBack(chunk) ? 1 : 0;
        }

        @Arbiter
        public void arbiter(III_Result result) {
            result.r3 = callbacks.get();
        }
    }

    /**
     * An arena of one slot: its chunk is given back (actor 1) while a lend takes the slot's memory
     * again and a stale holder then gives back the old chunk (actor 2). The new loan gets the slot
     * only after the give-back, and then the stale give-back must be refused: the memory is out on
     * the newer loan.
     *
     * <p>Result: {@code actor 1's give-back won, the new loan got the slot (direct), the stale
     * give-back won, the new loan is still lent}.
     */
    @JCStressTest
    @Outcome(
            id = "1, 1, 0, 1",
            expect = ACCEPTABLE,
            desc = "given back, the slot lent again, the stale give-back refused")
    @Outcome(
            id = "1, 0, 0, 1",
            expect = ACCEPTABLE,
            desc = "the lend came first and overflowed to the heap; actor 1 won")
    @Outcome(id = "0, 0, 1, 1", expect = ACCEPTABLE, desc = "the lend overflowed; the second holder gave back first")
    @Outcome(
            id = ".*, 1, 1, .*",
            expect = FORBIDDEN,
            desc = "a stale give-back accepted while the memory is out on a newer loan")
    @Outcome(expect = FORBIDDEN, desc = "the chunk given back twice or never, or the new loan lost")
    @State
    public static class GiveBackRacesNewLend {
        final ChunkArena arena = new ChunkArena(16, 1);
        final ByteBuffer first = arena.lend(16);

        @Actor
        public void giver(IIII_Result result) {
            result.r1 = Loans.giveBack(first) ? 1 : 0;
        }

        @Actor
        public void lender(IIII_Result result) {
            ByteBuffer second = arena.lend(16);
            result.r2 = second.isDirect() ? 1 : 0;
            result.r3 = Loans.giveBack(first) ? 1 : 0;
            result.r4 = Loans.isLent(second) ? 1 : 0;
            Loans.giveBack(second);
        }
    }

    /**
     * A look-up races the give-back of the same chunk while another chunk stays lent: it sees the
     * chunk lent or not, never a failure, and never loses the other chunk.
     *
     * <p>Result: {@code give-back won, the look-up saw it lent, the other chunk seen lent, lent
     * after both}.
     */
    @JCStressTest
    @Outcome(
            id = {"1, 1, 1, 0", "1, 0, 1, 0"},
            expect = ACCEPTABLE,
            desc = "the look-up saw the chunk before or after its give-back")
    @Outcome(expect = FORBIDDEN, desc = "the give-back lost, the other loan vanished, or the chunk is still lent")
    @State
    public static class IsLentRacesGiveBack {
        final ByteBuffer chunk = ChunkPool.lend(ByteBuffer.allocate(4), () -> {});
        final ByteBuffer other = ChunkPool.lend(ByteBuffer.allocate(4), () -> {});

        @Actor
        public void giver(IIII_Result result) {
            result.r1 = Loans.giveBack(chunk) ? 1 : 0;
        }

        @Actor
        public void looker(IIII_Result result) {
            result.r2 = Loans.isLent(chunk) ? 1 : 0;
            result.r3 = Loans.isLent(other) ? 1 : 0;
        }

        @Arbiter
        public void arbiter(IIII_Result result) {
            result.r4 = Loans.isLent(chunk) ? 1 : 0;
            Loans.giveBack(other);
        }
    }

    /**
     * Two threads lend a chunk each and give back the other's chunk, lent before, while looking up
     * their own: loans of different chunks, whichever of {@code Loans}' tables they fall into,
     * neither lose nor take each other's.
     *
     * <p>Result: {@code first gave back, second gave back, first's loan seen, second's loan seen}.
     */
    @JCStressTest
    @Outcome(id = "1, 1, 1, 1", expect = ACCEPTABLE, desc = "both give-backs won and both new loans are out")
    @Outcome(expect = FORBIDDEN, desc = "a give-back refused or a new loan lost")
    @State
    public static class LendsAndGiveBacksOfDifferentChunks {
        final ByteBuffer earlierOfFirst = ChunkPool.lend(ByteBuffer.allocate(4), () -> {});
        final ByteBuffer earlierOfSecond = ChunkPool.lend(ByteBuffer.allocate(4), () -> {});

        @Actor
        public void first(IIII_Result result) {
            ByteBuffer mine = ChunkPool.lend(ByteBuffer.allocate(4), () -> {});
            result.r1 = Loans.giveBack(earlierOfSecond) ? 1 : 0;
            result.r3 = Loans.isLent(mine) ? 1 : 0;
            Loans.giveBack(mine);
        }

        @Actor
        public void second(IIII_Result result) {
            ByteBuffer mine = ChunkPool.lend(ByteBuffer.allocate(4), () -> {});
            result.r2 = Loans.giveBack(earlierOfFirst) ? 1 : 0;
            result.r4 = Loans.isLent(mine) ? 1 : 0;
            Loans.giveBack(mine);
        }
    }
}
