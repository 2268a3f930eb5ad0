package io.sluice.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The stage an operation returns. The operation completes it through {@link #succeed} and
 * {@link #fail}; a completion from outside ({@code cancel}, {@code complete},
 * {@code completeExceptionally}, {@code orTimeout}, {@code completeOnTimeout}) that wins the race
 * aborts the operation first: the abort hook runs on the completing thread, and only when it has
 * returned is the stage completed, so no dependent of the stage runs before the operation has been
 * stopped (its channel closed), whatever thread completes it.
 *
 * <p>Invariants:
 * <ul>
 *   <li>F1: the stage completes exactly once (CompletableFuture's own guarantee); the abort hook
 *       runs at most once, only when an outside completion claimed the stage first, and it has
 *       returned before the stage completes.</li>
 *   <li>F2: an operation may claim a point of no return ({@link #enterCommit()}, e.g. just before
 *       an atomic write renames its file over the target); from then on outside completions lose
 *       ({@code cancel} returns {@code false}) and the stage reports what the operation did. Either
 *       the claim or an outside completion wins, never both, so a cancelled stage never hides a
 *       replaced target.</li>
 * </ul>
 */
public final class OperationFuture<T> extends CompletableFuture<T> {

    private volatile Runnable onAbort = () -> { };   // set once, before the future escapes
    private final AtomicBoolean settled = new AtomicBoolean();   // any thread: the commit claim or an outside completion won (F2)

    /** Sets what an outside completion triggers; call before returning the future to users. */
    public void onAbort(Runnable hook) {
        this.onAbort = hook;
    }

    /** Completes normally, from the operation; returns whether this call completed it. */
    public boolean succeed(T value) {
        return super.complete(value);
    }

    /** Completes exceptionally, from the operation; returns whether this call completed it. */
    public boolean fail(Throwable cause) {
        return super.completeExceptionally(cause);
    }

    /**
     * F2: claims the operation's point of no return, from the operation. Returns {@code false} if an
     * outside completion already won: the operation must then abort instead of committing.
     */
    public boolean enterCommit() {
        return settled.compareAndSet(false, true);
    }

    @Override
    public boolean complete(T value) {
        return abortFirst() && super.complete(value);
    }

    @Override
    public boolean completeExceptionally(Throwable ex) {
        java.util.Objects.requireNonNull(ex, "ex");
        return abortFirst() && super.completeExceptionally(ex);
    }

    /**
     * Cancels the operation unless it already completed or reached its point of no return (F2):
     * then it returns {@code false} ({@code true} if the stage is cancelled already) and the stage
     * reports what the operation did.
     */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        if (!abortFirst()) {
            return isCancelled();
        }
        return super.cancel(mayInterruptIfRunning) || isCancelled();
    }

    /**
     * F1, F2: claims the stage for an outside completion and, if the claim won, stops the operation
     * before the caller completes the stage. Returns whether the caller may complete it. When the
     * operation has completed already (it calls {@link #succeed}/{@link #fail} without a commit
     * claim), the hook still runs; stopping an operation that has ended is harmless, and the
     * caller's completion then loses.
     */
    private boolean abortFirst() {
        if (isDone() || !settled.compareAndSet(false, true)) {
            return false;
        }
        onAbort.run();
        return true;
    }

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new CompletableFuture<>();
    }
}
