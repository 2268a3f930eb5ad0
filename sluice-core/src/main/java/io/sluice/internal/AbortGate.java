package io.sluice.internal;

import java.io.IOException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The one meeting point of a drain that opens an operation's files and a thread that aborts the
 * operation from outside: the drain's open step and the abort's close step run under one lock.
 * So either the abort comes first, and no open step starts afterwards ({@link #open} throws), or
 * the abort waits for an open step in flight and then closes what it opened. Nothing is held
 * while the drain writes: the abort closes a channel under the drain's feet instead.
 *
 * <p>Invariant G1: once {@link #abort} has returned, no open step runs, now or later.
 */
public final class AbortGate {

    /** An open step: opens files and stores their channels where the close step finds them. */
    @FunctionalInterface
    public interface OpenStep<T> {
        T open() throws IOException;
    }

    private final ReentrantLock lock = new ReentrantLock();   // held by one open step or one abort
    private volatile boolean aborted;                          // abort() under the lock, once -> open() under it, aborted() (drain)

    /**
     * Runs {@code step} on the drain unless the operation was aborted (G1); an abort meanwhile
     * waits for it.
     *
     * @param what names the operation in the exception
     * @throws IOException the step's, or one with a {@link CancellationException} cause when the
     *     abort came first
     */
    public <T> T open(OpenStep<T> step, Object what) throws IOException {
        lock.lock();
        try {
            if (aborted) {
                throw cancelled(what);
            }
            return step.open();
        } finally {
            lock.unlock();
        }
    }

    /**
     * From any thread: marks the operation aborted and runs {@code closeStep}, waiting for an open
     * step in flight first; returns {@code false} (and runs nothing) if it was aborted already.
     */
    public boolean abort(Runnable closeStep) {
        lock.lock();
        try {
            if (aborted) {
                return false;
            }
            aborted = true;
            closeStep.run();
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
        String message = what + " was cancelled";
        IOException refused = new IOException(message);
        refused.initCause(new CancellationException(message));
        return refused;
    }
}
