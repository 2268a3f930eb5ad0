package io.sluice.jmh;

import io.sluice.ChunkPool;
import io.sluice.internal.ChunkArena;
import io.sluice.internal.Loans;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One question: what does lent-chunk ownership cost a thread as more threads use it at once? Each
 * benchmark is one step of a lent chunk's life on the calls a read's drain and a writer's
 * {@code onNext} make, with {@link Background#LOANS_OUT} other loans out in the JVM, as on a busy
 * server. The thread count is JMH's {@code -t}; {@link LoansScaling} runs 1 to 64.
 *
 * <p>A give-back needs a loan, so lend and give-back are measured as a pair; a look-up is measured
 * alone, of a chunk that is lent and of one that is not (a writer's owned chunk while others are
 * out). The baseline is {@code isLentWhenNothingIsOut}'s empty-table check: what owned chunks pay.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class LoansBenchmark {

    private static final Runnable NOTHING = () -> {};

    /** Loans held by no benchmark thread, so the table is never empty. */
    @State(Scope.Benchmark)
    public static class Background {
        static final int LOANS_OUT = 1024;
        final List<ByteBuffer> out = new ArrayList<>(); // setup thread only
        final ChunkArena shared = new ChunkArena(4096, 256); // every thread lends from it, as from a shared pool

        @Setup(Level.Trial)
        public void lend() {
            for (int i = 0; i < LOANS_OUT; i++) {
                out.add(ChunkPool.lend(ByteBuffer.allocate(16), NOTHING));
            }
        }

        @TearDown(Level.Trial)
        public void giveBack() {
            out.forEach(ChunkPool::giveBack);
            out.clear();
        }
    }

    /** A thread's own chunks. */
    @State(Scope.Thread)
    public static class Held {
        final ByteBuffer owned = ByteBuffer.allocate(4096); // never lent
        ByteBuffer lent; // lent for the trial

        @Setup(Level.Trial)
        public void lend() {
            lent = ChunkPool.lend(ByteBuffer.allocate(4096), NOTHING);
        }

        @TearDown(Level.Trial)
        public void giveBack() {
            ChunkPool.giveBack(lent);
        }
    }

    @Benchmark
    public boolean lendAndGiveBackAnOwnersBuffer(Background background, Held held) {
        ByteBuffer view = ChunkPool.lend(held.owned, NOTHING);
        return Loans.giveBack(view);
    }

    @Benchmark
    public boolean lendAndGiveBackAnArenaChunk(Background background) {
        return Loans.giveBack(background.shared.lend(4096));
    }

    /**
     * The control for the pairs: the objects a pair allocates (the view, a weak reference
     * registered with a queue, a look-up key, a table entry) and the reference cleared, with no
     * table or arena touched. What it costs more per thread as threads are added is the
     * machine's (the collector and compiler losing their spare core), not contention.
     */
    @Benchmark
    public Object allocateAsAPairDoes(Held held, Control control) {
        ByteBuffer view = held.owned.duplicate();
        Control.Entry entry = new Control.Entry(view, control.queue);
        Object key = new Control.Key(view);
        Object node = new Control.Key(entry);
        entry.clear();
        return entry.hash == key.hashCode() ? node : key;
    }

    @Benchmark
    public boolean isLentOfALentChunk(Background background, Held held) {
        return Loans.isLent(held.lent);
    }

    @Benchmark
    public boolean isLentOfAnOwnedChunk(Background background, Held held) {
        return Loans.isLent(held.owned);
    }

    @Benchmark
    public boolean isLentWhenNothingIsOut(Owned owned) {
        return Loans.isLent(owned.buffer);
    }

    /** A thread's owned chunk, with no loan out in the JVM. */
    @State(Scope.Thread)
    public static class Owned {
        final ByteBuffer buffer = ByteBuffer.allocate(4096); // never lent
    }

    /** A thread's own queue and the shapes of the objects a pair allocates. */
    @State(Scope.Thread)
    public static class Control {
        final ReferenceQueue<ByteBuffer> queue = new ReferenceQueue<>(); // never polled: entries are cleared

        /** A loan's shape: a weak reference registered with a queue, with its referent's identity hash. */
        static final class Entry extends WeakReference<ByteBuffer> {
            final int hash; // identity hash of the referent

            Entry(ByteBuffer referent, ReferenceQueue<ByteBuffer> queue) {
                super(referent, queue);
                this.hash = System.identityHashCode(referent);
            }
        }

        /** A look-up key's or a table entry's shape: one reference. */
        static final class Key {
            final Object target; // never null

            Key(Object target) {
                this.target = target;
            }

            @Override
            public int hashCode() {
                return System.identityHashCode(target);
            }

            @Override
            public boolean equals(Object other) {
                return other instanceof Key key && key.target == target;
            }
        }
    }
}
