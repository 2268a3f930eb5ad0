package io.sluice.internal;

import java.io.IOException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The one meeting point of a drain that opens an operation's files and a thread that aborts the
 * operation from outside. The lock is held only to change the gate's state, never during the open
 * itself, because an open can block for as long as the system call does: forever on a FIFO with
 * no peer or on a hung network mount, and an abort must not block with it.
 *
 * <p>Invariants:
 * <ul>
 *   <li>G1: once {@link #abort} has returned, no open step starts, now or later.</li>
 *   <li>G2: the close step runs exactly once, after the open step (if one started) has returned:
 *       on the aborting thread when no open is in flight or the one in flight returns within
 *       {@link #OPEN_WAIT_NANOS}; otherwise on the opening thread, the moment its open returns,
 *       before {@link #open} throws. So what an open step opened is always closed, and nothing
 *       is read or written through it once the abort has been called.</li>
 *   <li>G3: {@link #abort} returns within {@link #OPEN_WAIT_NANOS} plus the close step's own
 *       time, whatever the open in flight does.</li>
 * </ul>
 */
public final class AbortGate {

    /**
     * How long an abort waits for an open in flight before it leaves the close to the opening
     * thread: long enough that an open that is merely slow is closed before the abort returns (so
     * the operation's stage completes with its files closed), short enough that a cancel never
     * waits noticeably for one that never returns.
     */
    public static final long OPEN_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    /** An open step: opens files and stores their channels where the close step finds them. */
    @FunctionalInterface
    public interface OpenStep<T> {
        T open() throws IOException;
    }

    private final long openWaitNanos;
    private final ReentrantLock lock = new ReentrantLock(); // held only to change the fields below
    private final Condition openReturned = lock.newCondition();
    private volatile boolean aborted; // abort() under the lock, once -> open() under it, aborted() (drain)
    private boolean opening; // under the lock: open() sets and clears it
    private Runnable deferredClose; // under the lock: abort() leaves it for the opening thread (G2)

    /** A gate whose abort waits {@link #OPEN_WAIT_NANOS} for an open in flight. */
    public AbortGate() {
        this(OPEN_WAIT_NANOS);
    }

    /** A gate whose abort waits {@code openWaitNanos} for an open in flight (0: it never waits; for stress tests). */
    public AbortGate(long openWaitNanos) {
        this.openWaitNanos = openWaitNanos;
    }

    /**
     * Runs {@code step} unless the operation was aborted (G1). If an abort comes while it runs and
     * stops waiting for it, the abort's close step runs here as soon as {@code step} returns (G2),
     * and this method throws.
     *
     * @param what names the operation in the exception
     * @throws IOException the step's, or one with a {@link CancellationException} cause when the
     *     abort came first or during the step
     */
    public <T> T open(OpenStep<T> step, Object what) throws IOException {
        lock.lock();
        try {
            if (aborted) {
                throw cancelled(what);
            }
            opening = true;
        } finally {
            lock.unlock();
        }
        T opened = null;
        IOException failure = null;
        RuntimeException bug = null;
        Runnable close = null;
        try {
            opened = CompensatingPool.watch(step); // may block for good: not on the pool's account
        } catch (IOException e) {
            failure = e;
        } catch (RuntimeException e) {
            bug = e;
        } finally { // an Error too: the gate must not stay "opening"
            lock.lock();
            try {
                opening = false;
                openReturned.signalAll();
                close = deferredClose;
                deferredClose = null;
                if (close != null) {
                    close.run(); // G2: the abort stopped waiting; close what we opened
                }
            } finally {
                lock.unlock();
            }
        }
        if (close != null || (aborted && failure != null)) {
            IOException refused = close != null ? cancelledWhileOpening(what) : cancelled(what);
            if (failure != null) {
                refused.addSuppressed(failure);
            }
            if (bug != null) {
                refused.addSuppressed(bug);
            }
            throw refused;
        }
        if (failure != null) {
            throw failure;
        }
        if (bug != null) {
            throw bug;
        }
        return opened;
    }

    /**
     * From any thread: marks the operation aborted and runs {@code closeStep} once what an open in
     * flight opened can be closed (G2), waiting for that open at most {@link #OPEN_WAIT_NANOS}
     * or the wait given to the constructor (G3); returns {@code false} (and runs nothing) if it was aborted already.
     */
    public boolean abort(Runnable closeStep) {
        lock.lock();
        try {
            if (aborted) {
                return false;
            }
            aborted = true;
            boolean interrupted = false;
            long deadline = System.nanoTime() + openWaitNanos;
            long left;
            while (opening && (left = deadline - System.nanoTime()) > 0) {
                try {
                    openReturned.awaitNanos(left);
                } catch (InterruptedException e) {
                    interrupted = true; // the wait is bounded anyway; keep the status for the caller
                }
            }
            if (opening) {
                deferredClose = closeStep; // G2, G3: the opening thread closes when its open returns
            } else {
                closeStep.run();
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Whether {@link #abort} has been called; once true, stays true. */
    public boolean aborted() {
        return aborted;
    }

    /** The exception of a drain step refused because the operation was aborted. */
    public static IOException cancelled(Object what) {
        return cancellation(what + " was cancelled");
    }

    /** G2: the exception of an open that returned after the abort stopped waiting for it. */
    static IOException cancelledWhileOpening(Object what) {
        return cancellation(what + " was cancelled while it opened; what it opened is closed");
    }

    private static IOException cancellation(String message) {
        IOException refused = new IOException(message);
        refused.initCause(new CancellationException(message));
        return refused;
    }
}
