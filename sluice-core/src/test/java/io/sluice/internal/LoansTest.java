package io.sluice.internal;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link Loans} and {@link ChunkArena}: ownership by identity, from many threads at once (P1-P3). */
class LoansTest {

    @Test
    void exactlyOneOfManyThreadsGivingBackTheSameChunkWins() throws Exception {
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CyclicBarrier start = new CyclicBarrier(threads);
            for (int round = 0; round < 200; round++) {
                AtomicInteger callbacks = new AtomicInteger();
                ByteBuffer chunk = ByteBuffer.allocate(8);
                Loans.lend(chunk, callbacks::incrementAndGet);
                List<Future<Boolean>> givers = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    givers.add(pool.submit(() -> {
                        start.await();
                        return Loans.giveBack(chunk);
                    }));
                }
                int won = 0;
                for (Future<Boolean> giver : givers) {
                    won += giver.get(10, TimeUnit.SECONDS) ? 1 : 0;
                }
                assertEquals(1, won, "round " + round + ": give-backs that won");
                assertEquals(1, callbacks.get(), "round " + round + ": the owner's callback runs once");
                assertFalse(Loans.isLent(chunk));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aStaleGiveBackIsRefusedWhileTheSameMemoryIsOutOnANewerLoan() {
        ChunkArena arena = new ChunkArena(64, 1);
        ByteBuffer first = arena.lend(64);
        assertTrue(Loans.giveBack(first));
        ByteBuffer second = arena.lend(64);
        assertTrue(second.isDirect(), "the one slot is lent again");
        assertNotSame(first, second);
        second.put(0, (byte) 42);
        assertEquals(42, first.get(0), "the same memory: a stale holder could still see it");

        assertFalse(Loans.giveBack(first), "the stale chunk is not the newer loan");
        assertFalse(Loans.giveBack(second.duplicate()), "a view is not the loan");
        assertFalse(Loans.giveBack(second.slice()), "a slice is not the loan");
        assertTrue(Loans.isLent(second), "the newer loan is still out");
        assertEquals(0, arena.idle(), "nothing came back to the arena");
        ByteBuffer third = arena.lend(64);
        assertFalse(third.isDirect(), "the slot is still lent: the pool overflows to the heap");
        assertTrue(Loans.giveBack(second));
        assertTrue(Loans.giveBack(third));
        assertEquals(1, arena.idle());
    }

    @Test
    void aSlotGivenBackOnAnyThreadIsLentAgainOnAnyOtherBeforeNewMemory() throws Exception {
        ChunkArena arena = new ChunkArena(64, 8);
        List<ExecutorService> lenders = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            lenders.add(Executors.newSingleThreadExecutor()); // threads of different stripes
        }
        ExecutorService giver = Executors.newSingleThreadExecutor();
        try {
            for (int i = 0; i < 100; i++) {
                ByteBuffer chunk = lenders.get(i % lenders.size())
                        .submit(() -> arena.lend(64))
                        .get(10, TimeUnit.SECONDS);
                assertTrue(giver.submit(() -> Loans.giveBack(chunk)).get(10, TimeUnit.SECONDS));
            }
        } finally {
            lenders.forEach(ExecutorService::shutdownNow);
            giver.shutdownNow();
        }
        assertEquals(1, arena.allocated(), "one buffer serves lenders and a giver on different threads");
        assertEquals(1, arena.idle());
        assertEquals(0, arena.overflowed());
    }

    @Test
    void manyThreadsLendingAndGivingBackStayWithinTheBoundAndNeverShareMemory() throws Exception {
        int threads = 8;
        int slots = 4;
        ChunkArena arena = new ChunkArena(256, slots);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        AtomicInteger peakAllocated = new AtomicInteger();
        try {
            CyclicBarrier start = new CyclicBarrier(threads);
            List<Future<String>> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                byte mark = (byte) (t + 1);
                workers.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < 5_000; i++) {
                        ByteBuffer chunk = arena.lend(256);
                        for (int at = 0; at < 256; at++) {
                            chunk.put(at, mark);
                        }
                        peakAllocated.accumulateAndGet(arena.allocated(), Math::max);
                        Thread.onSpinWait();
                        for (int at = 0; at < 256; at++) {
                            if (chunk.get(at) != mark) {
                                return "a chunk held by thread " + mark + " was written by thread " + chunk.get(at);
                            }
                        }
                        if (!Loans.giveBack(chunk)) {
                            return "a chunk lent to thread " + mark + " was refused";
                        }
                    }
                    return "";
                }));
            }
            for (Future<String> worker : workers) {
                assertEquals("", worker.get(60, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
        assertTrue(peakAllocated.get() <= slots, "direct buffers alive: " + peakAllocated.get());
        assertEquals(arena.allocated(), arena.idle(), "every slot back");
        assertEquals(threads * 5_000L, arena.lent());
    }

    @Test
    void everyLoanIsFoundGivenBackOnceAndRefusedAfterWhicheverTableItFallsInto() {
        int loans = Loans.TABLES * 64; // every table many times over
        List<ByteBuffer> chunks = new ArrayList<>();
        AtomicInteger callbacks = new AtomicInteger();
        for (int i = 0; i < loans; i++) {
            ByteBuffer chunk = ByteBuffer.allocate(1);
            Loans.lend(chunk, callbacks::incrementAndGet);
            chunks.add(chunk);
        }
        ByteBuffer owned = ByteBuffer.allocate(1);
        assertFalse(Loans.isLent(owned), "a buffer never lent, while loans are out");
        assertFalse(Loans.giveBack(owned));
        for (ByteBuffer chunk : chunks) {
            assertTrue(Loans.isLent(chunk));
            assertFalse(Loans.isLent(chunk.duplicate()), "a view of a lent chunk is not the loan");
        }
        for (ByteBuffer chunk : chunks) {
            assertTrue(Loans.giveBack(chunk));
            assertFalse(Loans.giveBack(chunk), "a second give-back");
            assertFalse(Loans.isLent(chunk));
        }
        assertEquals(loans, callbacks.get(), "each owner's callback ran once");
    }

    @Test
    void aChunkNeverGivenBackIsDroppedFromTheTableOnceCollected() throws Exception {
        List<ByteBuffer> forgotten = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            ByteBuffer chunk = ByteBuffer.allocate(16);
            Loans.lend(chunk, () -> {});
            forgotten.add(chunk);
        }
        assertTrue(forgotten.stream().allMatch(Loans::isLent));
        int recorded = Loans.size(); // ours, and any other test's not yet found
        assertTrue(recorded >= 1_000, "recorded: " + recorded);
        forgotten.clear(); // never given back
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (Loans.size() > recorded - 1_000 + 10 && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(10);
            ByteBuffer probe = ByteBuffer.allocate(1);
            Loans.lend(probe, () -> {}); // a lend drops what the collector found
            Loans.giveBack(probe);
        }
        assertTrue(
                Loans.size() <= recorded - 1_000 + 10, "loans left in the table: " + Loans.size() + " of " + recorded);
    }
}
