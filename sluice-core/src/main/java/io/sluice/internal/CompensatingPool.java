package io.sluice.internal;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fixed-size pool of daemon threads that keeps its size in threads free to work while some of
 * them are stuck in a call that may never return: an {@code open} of a file on a hung network
 * mount, a {@code stat} of it, an open that a FIFO or a file lease holds. The JDK cannot abandon
 * such a call (no signal cuts an {@code open(2)} short), so the thread is lost until the call
 * returns; what the pool can do is stop counting it. A call made through {@link #watch} on one of
 * the pool's threads is registered; a watcher on {@link SluiceTimer} looks at registered calls
 * every {@link #TICK_NANOS} while any is in flight, and for each one older than
 * {@link #STUCK_NANOS} lets the pool start one more thread, taken back when the call returns (as
 * {@code ForkJoinPool.managedBlock} compensates, but only for calls that are actually stuck, so a
 * fast open costs two volatile writes and no thread).
 *
 * <p>Invariants:
 * <ul>
 *   <li>H1: the pool's size is {@code threads} plus the number of its threads whose watched call
 *       has been counted stuck and has not returned, at most {@link #MAX_EXTRA_THREADS} more.</li>
 *   <li>H2: a thread's watched call is counted stuck at most once, and given back exactly once
 *       when it returns, whichever of the watcher and the returning thread comes first; the size
 *       is set from the count under one lock, so grow and shrink commute.</li>
 *   <li>H3: the watcher runs only while a watched call may be in flight: a call that starts
 *       registers before it checks whether the watcher runs, and a watcher that finds none clears
 *       its flag and then looks once more.</li>
 * </ul>
 */
public final class CompensatingPool {

    /**
     * How long a watched call runs before its thread is replaced: far beyond any open that is only
     * slow (a thread descheduled on a busy machine, which must not make the pool grow), and short
     * next to what a hung mount or a FIFO without a peer holds an open (for ever).
     */
    public static final long STUCK_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
    /** How often the watcher looks while watched calls are in flight. */
    static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /** The most threads a pool adds for stuck calls; beyond it, further stuck calls hold their threads. */
    public static final int MAX_EXTRA_THREADS = 256;

    /** A call that may block for as long as a system call does, on one argument. */
    @FunctionalInterface
    public interface Call<A, T> {
        T run(A argument) throws IOException;
    }

    private static final int IDLE = 0;
    private static final int IN_CALL = 1;
    private static final int COUNTED_STUCK = 2;

    private static final Set<PoolThread> LIVE =
            ConcurrentHashMap.newKeySet(); // pool threads, while they live -> watcher
    private static final AtomicBoolean WATCHING =
            new AtomicBoolean(); // any thread: whether a watcher tick is scheduled (H3)

    private final ThreadPoolExecutor executor;
    private final int threads;
    private int extra; // guarded by executor: threads added for stuck calls (H1)

    private CompensatingPool(String prefix, int threads) {
        this.threads = threads;
        AtomicInteger next = new AtomicInteger(1);
        ThreadFactory factory = task -> new PoolThread(this, task, prefix + next.getAndIncrement());
        this.executor =
                new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), factory);
        this.executor.allowCoreThreadTimeOut(true);
    }

    /**
     * A new pool of {@code threads} daemon threads named {@code prefix + n}, ending after 60 s
     * idle, with an unbounded FIFO queue.
     */
    public static ThreadPoolExecutor create(String prefix, int threads) {
        return new CompensatingPool(prefix, threads).executor;
    }

    /**
     * Runs {@code call}, which may block for as long as a system call does; on a thread of such a
     * pool the call is watched, so a call stuck past {@link #STUCK_NANOS} does not take a thread
     * from the pool's work (H1). On any other thread it just runs.
     */
    public static <T> T watch(AbortGate.OpenStep<T> call) throws IOException {
        return watch(AbortGate.OpenStep::open, call);
    }

    /**
     * Runs {@code call} on {@code argument}, watched as {@link #watch(AbortGate.OpenStep)} runs its
     * step: for a hot path, where a method reference that captures nothing is one shared object
     * and a lambda that captures the argument would be a new one per call.
     */
    public static <A, T> T watch(Call<A, T> call, A argument) throws IOException {
        Thread current = Thread.currentThread();
        if (!(current instanceof PoolThread)) {
            return call.run(argument);
        }
        PoolThread thread = (PoolThread) current;
        if (thread.call.get() != IDLE) {
            return call.run(argument); // nested in a watched call: the outer one is watched (H2)
        }
        thread.callStart = System.nanoTime();
        thread.call.set(IN_CALL); // H3: registered before the watcher check
        if (!WATCHING.get() && WATCHING.compareAndSet(false, true)) {
            scheduleTick();
        }
        try {
            return call.run(argument);
        } finally {
            if (thread.call.getAndSet(IDLE) == COUNTED_STUCK) {
                thread.pool.resize(-1); // H2: given back once
            }
        }
    }

    /** Schedules the next tick; if the timer cannot (no thread to be had), the next watched call tries again (H3). */
    private static void scheduleTick() {
        try {
            SluiceTimer.schedule(CompensatingPool::tick, TICK_NANOS);
        } catch (Throwable refused) {
            WATCHING.set(false);
        }
    }

    /** The watcher: counts calls stuck past the limit (H1, H2) and reschedules while any is in flight (H3). */
    private static void tick() {
        if (scan()) {
            scheduleTick();
            return;
        }
        WATCHING.set(false);
        if (scan() && WATCHING.compareAndSet(false, true)) { // H3: a call that started meanwhile
            scheduleTick();
        }
    }

    /** Returns whether a watched call is in flight. */
    private static boolean scan() {
        boolean inFlight = false;
        long now = System.nanoTime();
        for (PoolThread thread : LIVE) {
            int state = thread.call.get();
            if (state == IDLE) {
                continue;
            }
            inFlight = true;
            if (state == IN_CALL
                    && now - thread.callStart >= STUCK_NANOS
                    && thread.call.compareAndSet(IN_CALL, COUNTED_STUCK)) {
                thread.pool.resize(+1); // H2: counted once
            }
        }
        return inFlight;
    }

    /** H1, H2: applies a change of the stuck count; the size follows the count, capped. */
    private void resize(int change) {
        synchronized (executor) {
            extra += change;
            int size = threads + Math.max(0, Math.min(extra, MAX_EXTRA_THREADS));
            if (size > executor.getMaximumPoolSize()) {
                executor.setMaximumPoolSize(size);
                executor.setCorePoolSize(size); // starts threads for queued tasks at once
            } else if (size < executor.getCorePoolSize()) {
                executor.setCorePoolSize(size);
                executor.setMaximumPoolSize(size); // threads beyond it end when next idle
            }
        }
    }

    /** A thread of a compensating pool, registered while it lives. */
    private static final class PoolThread extends Thread {
        final CompensatingPool pool;
        final AtomicInteger call =
                new AtomicInteger(IDLE); // this thread: IDLE <-> IN_CALL; watcher: IN_CALL -> COUNTED_STUCK
        volatile long callStart; // this thread -> watcher: when the watched call began

        PoolThread(CompensatingPool pool, Runnable task, String name) {
            super(task, name);
            this.pool = pool;
            setDaemon(true);
        }

        @Override
        public void run() {
            LIVE.add(this);
            try {
                super.run();
            } finally {
                LIVE.remove(this);
            }
        }
    }
}
