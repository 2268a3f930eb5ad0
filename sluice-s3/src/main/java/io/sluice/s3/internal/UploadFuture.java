package io.sluice.s3.internal;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The stage an upload returns. Whoever claims it first completes it: the upload (through
 * {@link #succeed}, {@link #fail} or {@link #enterCommit}) or a completion from outside
 * ({@code cancel}, {@code complete}, {@code completeExceptionally}, {@code completeAsync},
 * {@code orTimeout}, {@code completeOnTimeout}).
 *
 * <p>Unlike closing a file, aborting a multipart upload is a network call, and the completing thread
 * may be one that must not wait (an SDK event loop, the JDK's timeout thread). So an outside
 * completion that wins returns at once, and the stage completes, with what that completion asked for,
 * only after the abort has finished: no dependent of the stage runs before the parts are gone.
 *
 * <p>Invariants:
 * <ul>
 *   <li>U1: the stage is claimed exactly once; the abort hook runs exactly when an outside completion
 *       claimed it, once, and the stage completes only when the hook calls back.</li>
 *   <li>U2: the upload claims its point of no return ({@link #enterCommit()}) just before sending the
 *       request that makes the object visible ({@code PutObject}, {@code CompleteMultipartUpload});
 *       from then on outside completions lose ({@code cancel} returns {@code false}) and the stage
 *       reports what the server did.</li>
 *   <li>U3: between an outside claim and the abort's end, {@code cancel} has returned {@code true}
 *       but {@code isDone()} is still {@code false}.</li>
 * </ul>
 *
 * @param <T> the result type
 */
public final class UploadFuture<T> extends CompletableFuture<T> {

    private static final int OPEN = 0;
    private static final int BY_OPERATION = 1;
    private static final int FROM_OUTSIDE = 2;

    private final AtomicInteger claim = new AtomicInteger(OPEN);   // any thread: who completes the stage (U1, U2)
    private volatile Consumer<Runnable> onAbort = Runnable::run;  // creating thread, before the future escapes -> outside completer

    /** Creates an open stage; set the abort hook before it escapes. */
    public UploadFuture() {
    }

    /**
     * Sets what an outside completion triggers: the hook aborts the upload and then runs the
     * runnable it is given, which completes the stage.
     */
    public void onAbort(Consumer<Runnable> hook) {
        this.onAbort = hook;
    }

    /** Completes normally, from the upload; false once an outside completion claimed the stage. */
    public boolean succeed(T value) {
        return claimForOperation() && super.complete(value);
    }

    /** Completes exceptionally, from the upload; false once an outside completion claimed the stage. */
    public boolean fail(Throwable cause) {
        return claimForOperation() && super.completeExceptionally(cause);
    }

    /** U2: claims the point of no return; false if an outside completion already won. */
    public boolean enterCommit() {
        return claimForOperation();
    }

    private boolean claimForOperation() {
        return claim.compareAndSet(OPEN, BY_OPERATION) || claim.get() == BY_OPERATION;
    }

    private boolean claimFromOutside(Runnable completion) {
        if (!claim.compareAndSet(OPEN, FROM_OUTSIDE)) {
            return false;
        }
        onAbort.accept(completion);                  // U1: completes the stage when aborted
        return true;
    }

    @Override
    public boolean complete(T value) {
        return claimFromOutside(() -> super.complete(value));
    }

    @Override
    public boolean completeExceptionally(Throwable ex) {
        Objects.requireNonNull(ex, "ex");
        return claimFromOutside(() -> super.completeExceptionally(ex));
    }

    /**
     * Aborts the upload unless it completed or reached its point of no return (U2); the stage is
     * cancelled once the abort has finished (U3).
     */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        return claimFromOutside(() -> super.cancel(mayInterruptIfRunning)) || isCancelled();
    }

    /** Completes through {@link #complete}/{@link #completeExceptionally}, so the upload is aborted first. */
    @Override
    public CompletableFuture<T> completeAsync(Supplier<? extends T> supplier, Executor executor) {
        Objects.requireNonNull(supplier, "supplier");
        Objects.requireNonNull(executor, "executor");
        executor.execute(() -> {
            T value;
            try {
                value = supplier.get();
            } catch (Throwable t) {
                completeExceptionally(t);
                return;
            }
            complete(value);
        });
        return this;
    }

    @Override
    public CompletableFuture<T> completeAsync(Supplier<? extends T> supplier) {
        return completeAsync(supplier, defaultExecutor());
    }

    /** Aborts the upload (if it has not completed) and forces the value at once. */
    @Override
    public void obtrudeValue(T value) {
        claimFromOutside(() -> { });
        super.obtrudeValue(value);
    }

    /** Aborts the upload (if it has not completed) and forces the exception at once. */
    @Override
    public void obtrudeException(Throwable ex) {
        Objects.requireNonNull(ex, "ex");
        claimFromOutside(() -> { });
        super.obtrudeException(ex);
    }

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new CompletableFuture<>();
    }
}
