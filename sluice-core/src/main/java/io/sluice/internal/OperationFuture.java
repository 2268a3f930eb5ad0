package io.sluice.internal;

import java.util.concurrent.CompletableFuture;

/**
 * The stage an operation returns. The operation completes it through {@link #succeed} and
 * {@link #fail}; a completion from outside ({@code cancel}, {@code complete},
 * {@code completeExceptionally}, {@code orTimeout} ...) that wins the race aborts the operation, which
 * then cancels upstream and closes its channel on its drain.
 *
 * <p>Invariant F1: the stage completes exactly once (CompletableFuture's own guarantee); the abort
 * hook runs at most once, and only when an outside completion won.
 */
public final class OperationFuture<T> extends CompletableFuture<T> {

    private volatile Runnable onAbort = () -> { };   // set once, before the future escapes

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

    @Override
    public boolean complete(T value) {
        return aborted(super.complete(value));
    }

    @Override
    public boolean completeExceptionally(Throwable ex) {
        return aborted(super.completeExceptionally(ex));
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        return aborted(super.cancel(mayInterruptIfRunning));
    }

    private boolean aborted(boolean won) {
        if (won) {
            onAbort.run();
        }
        return won;
    }

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new CompletableFuture<>();
    }
}
