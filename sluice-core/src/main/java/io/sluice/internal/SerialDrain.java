package io.sluice.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.function.Consumer;

/**
 * The one place that knows the drain (work-in-progress) idiom: any thread may {@link #signal()},
 * and exactly one {@link #pass()} runs at a time on the executor, so the state a pass touches is
 * confined to "the drain" even though the threads running it change.
 *
 * <p>An operation made per call on a hot path (a read, a write, a copy) extends the drain: its
 * pass and failure are its own methods, and the drain is its own task, so the operation and its
 * drain are one object, as Reactor's {@code publishOn} subscriber is its own task. An owner that
 * extends something else uses {@link #of}. The drain's methods are final: a subclass changes what
 * a pass does, never how passes are ordered. The task is public, as a {@link Runnable} is: code
 * that runs a subscription or subscriber it was handed as a task (nothing in Reactive Streams
 * asks it to) breaks D1.
 *
 * <p>Invariants:
 * <ul>
 *   <li>D1: {@code pending > 0} exactly while a pass is scheduled, running, or held; only the
 *       thread that moves it from 0 to 1 (or the holder releasing it) submits a task.</li>
 *   <li>D2: passes are ordered by the atomic counter, so each pass happens-after every signal
 *       counted before it and after the previous pass (no field it owns needs to be volatile).</li>
 *   <li>D3: a pass that returns {@code true} yields: the drain is resubmitted while still held, so
 *       no other thread can start a pass meanwhile and other tasks on the executor get a turn.</li>
 *   <li>D4: a pass that throws (a bug) leaves the drain held and hands the error to the failure
 *       callback, which ends the operation: nothing runs twice, nothing hangs silently.</li>
 *   <li>D5: a yield never nests: when the executor runs the resubmitted task inline (a direct
 *       executor), that call only notes it and returns, and the loop already on the stack runs
 *       the next pass; so the stack stays flat however many times a long operation yields.</li>
 *   <li>D6: a yield to a {@link ThreadPoolExecutor} whose queue is empty is skipped: the drain
 *       runs its next pass on this thread, as in D5. A task waiting for such a pool's thread is in
 *       its queue, so an empty queue means nobody is waiting, and resubmitting would only hand the
 *       work to another thread (a wake-up and a core migration every yield). Any other executor is
 *       always yielded to: its waiting tasks cannot be seen.</li>
 * </ul>
 */
public abstract class SerialDrain implements Runnable {

    /** One unit of drain work, for {@link #of}. */
    @FunctionalInterface
    public interface Pass {
        /** As {@link SerialDrain#pass()}. */
        boolean run();
    }

    private static final VarHandle PENDING; // fields, not atomic objects: two objects less per operation
    private static final VarHandle YIELDING;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            PENDING = lookup.findVarHandle(SerialDrain.class, "pending", int.class);
            YIELDING = lookup.findVarHandle(SerialDrain.class, "yielding", Yield.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile int pending; // any thread: signals not yet served, plus the hold (D1); through PENDING
    private volatile Yield yielding; // yielding drain thread sets, clears -> thread starting the task (D5)
    private final Executor executor;

    /**
     * Creates the drain of an operation that extends it, so that an operation made per call on a
     * hot path is one object with its drain: its first pass follows the first {@link #signal()},
     * and not before {@link #release()} if it starts held.
     *
     * @param executor where passes run
     * @param held whether the drain starts held: no pass runs before {@link #release()}
     */
    protected SerialDrain(Executor executor, boolean held) {
        this.executor = executor;
        this.pending = held ? 1 : 0;
    }

    /**
     * A drain for an owner that cannot extend it; otherwise as the constructor.
     *
     * @param pass what a pass does ({@link #pass()})
     * @param onFailure the drain's failure ({@link #passFailed(Throwable)})
     */
    public static SerialDrain of(Executor executor, Pass pass, Consumer<Throwable> onFailure, boolean held) {
        return new Delegating(executor, pass, onFailure, held);
    }

    /**
     * Does the work that the signals so far call for; runs as the drain, never concurrently with
     * another pass or {@link #passFailed(Throwable)}.
     *
     * @return {@code true} to yield the executor and run again later (more work is left),
     *     {@code false} when the pass has done all it can until the next signal
     */
    protected abstract boolean pass();

    /**
     * Runs, as the drain (no pass can run concurrently), when the executor refuses the task (a
     * {@link RejectedExecutionException}, or anything else its {@code execute} throws) or a pass
     * throws (that throwable); it must bring the operation to a terminal state (D4).
     */
    protected abstract void passFailed(Throwable error);

    /** Asks for a pass; cheap and non-blocking from any thread. */
    public final void signal() {
        if ((int) PENDING.getAndAdd(this, 1) == 0) {
            submit();
        }
    }

    /** Ends the initial hold (D1): runs the passes that were signalled while held. */
    public final void release() {
        if ((int) PENDING.getAndAdd(this, -1) - 1 != 0) {
            submit();
        }
    }

    /** D1: called only by the thread holding the drain; a refusal keeps it held (D4). */
    private void submit() {
        try {
            executor.execute(this); // the drain is its own task: no task object per operation
        } catch (Throwable e) { // a user's executor may throw anything, not only REE
            passFailed(e);
        }
    }

    /**
     * The drain's task, which only the drain submits (D1): runs passes while signals are pending.
     * Nothing else may call it; its owner calls {@link #signal()}.
     */
    @Override
    public final void run() {
        Yield inProgress = yielding;
        if (inProgress != null && inProgress.thread == Thread.currentThread()) {
            inProgress.ranInline = true; // D5: the executor ran our resubmission inline; the caller loops
            return;
        }
        int missed = pending;
        for (; ; ) {
            boolean yielded;
            try {
                yielded = pass();
            } catch (Throwable t) {
                // D4: a pass must not throw; if one does (a bug), the drain stays held rather than
                // letting a second pass run concurrently, and the owner ends the operation.
                passFailed(t);
                return;
            }
            if (yielded) { // D3: yield while still holding the drain
                if (!othersWaiting() || resubmitRanInline()) {
                    missed = pending;
                    continue; // D6, D5: run the next pass here rather than one frame deeper
                }
                return;
            }
            missed = (int) PENDING.getAndAdd(this, -missed) - missed;
            if (missed == 0) {
                return;
            }
        }
    }

    /** D6: whether a task may be waiting for the executor's threads; {@code false} only when none can be. */
    private boolean othersWaiting() {
        return !(executor instanceof ThreadPoolExecutor pool)
                || !pool.getQueue().isEmpty();
    }

    /**
     * D3, D5: resubmits the drain; returns whether the executor ran it inline, in which case the
     * caller runs the next pass itself. Otherwise the task belongs to the executor from here on,
     * and this thread touches nothing but its own mark in {@code yielding}.
     */
    private boolean resubmitRanInline() {
        Yield mark = new Yield();
        yielding = mark;
        submit();
        YIELDING.compareAndSet(this, mark, null); // a task queued to run on this thread later must run
        return mark.ranInline;
    }

    /** One resubmission: the thread making it, and whether its task ran inline on that thread. */
    private static final class Yield {
        final Thread thread = Thread.currentThread(); // the yielding thread
        boolean ranInline; // the yielding thread only: set by the task it ran inline
    }

    /** The drain of an owner that passes its steps in: {@link #of}. */
    private static final class Delegating extends SerialDrain {
        private final Pass pass;
        private final Consumer<Throwable> onFailure;

        Delegating(Executor executor, Pass pass, Consumer<Throwable> onFailure, boolean held) {
            super(executor, held);
            this.pass = pass;
            this.onFailure = onFailure;
        }

        @Override
        protected boolean pass() {
            return pass.run();
        }

        @Override
        protected void passFailed(Throwable error) {
            onFailure.accept(error);
        }
    }
}
