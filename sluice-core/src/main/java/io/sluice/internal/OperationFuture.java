package io.sluice.internal;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The stage an operation returns. Whoever claims it first completes it: the operation (through
 * {@link #succeed}, {@link #fail} or {@link #enterCommit}) or a completion from outside
 * ({@code cancel}, {@code complete}, {@code completeExceptionally}, {@code completeAsync},
 * {@code orTimeout}, {@code completeOnTimeout}; {@code obtrudeValue}/{@code obtrudeException} abort
 * the operation too, then force their result as {@code CompletableFuture} does). An outside
 * completion that wins aborts the operation first: the abort hook runs on the completing thread, and
 * only when it has returned is the stage completed, so no dependent of the stage runs before the
 * operation has been stopped (its channel closed), whatever thread completes it.
 *
 * <p>An operation whose abort is itself asynchronous (a network call, which the completing thread
 * must not wait for) also sets {@link #onAbortAsync}: the completion then waits for the abort to
 * call back, and the completing call returns at once.
 *
 * <p>Invariants:
 * <ul>
 *   <li>F1: the stage is claimed exactly once ({@code claim}); the abort hook runs exactly when an
 *       outside completion claimed it, at most once, and has returned before the stage completes.
 *       After an outside claim the operation's own {@code succeed}/{@code fail} return
 *       {@code false} and change nothing: the operation still closes what it holds.</li>
 *   <li>F2: an operation may claim its point of no return ({@link #enterCommit()}, e.g. just before
 *       an atomic write renames its file over the target); from then on outside completions lose
 *       ({@code cancel} returns {@code false}) and the stage reports what the operation did. Either
 *       the claim or an outside completion wins, never both, so a cancelled stage never hides a
 *       replaced target.</li>
 *   <li>F3: {@code orTimeout} and {@code completeOnTimeout} complete from outside like any other
 *       completion, but from sluice's own threads: the JDK's delayer thread is never blocked by
 *       an abort.</li>
 *   <li>F4: with an asynchronous abort hook, an outside completion that wins returns {@code true}
 *       at once and the stage completes, as that completion asked, only when the hook runs the
 *       completion it was given: between the two, {@code cancel} has returned {@code true} but
 *       {@code isDone()} is {@code false}. The hook receives the completion exactly once, after the
 *       synchronous hook (F1) has returned.</li>
 * </ul>
 */
public final class OperationFuture<T> extends CompletableFuture<T> {

    private static final int OPEN = 0;
    private static final int BY_OPERATION = 1;
    private static final int FROM_OUTSIDE = 2;

    private volatile Runnable onAbort = () -> {}; // creating thread, before the future escapes -> outside completer
    private volatile Consumer<Runnable> onAbortAsync; // the same; null: the stage completes when onAbort returns (F4)
    private final AtomicInteger claim = new AtomicInteger(OPEN); // any thread: who completes the stage (F1, F2)

    /** Sets what an outside completion triggers; call before returning the future to users. */
    public void onAbort(Runnable hook) {
        this.onAbort = hook;
    }

    /**
     * Adds {@code next} to what an outside completion triggers, to run after the hook set so far
     * (even if that throws); call before returning the future to users.
     */
    public void alsoOnAbort(Runnable next) {
        Runnable first = onAbort;
        this.onAbort = () -> {
            try {
                first.run();
            } finally {
                next.run();
            }
        };
    }

    /**
     * F4: makes the abort asynchronous. An outside completion that wins runs the {@link #onAbort}
     * hook, then hands {@code hook} the completion it asked for; the hook starts stopping the
     * operation, must not wait, and runs the completion (from any thread) once the operation has
     * stopped. Call before returning the future to users.
     */
    public void onAbortAsync(Consumer<Runnable> hook) {
        this.onAbortAsync = hook;
    }

    /**
     * Completes normally, from the operation; returns whether this call completed it ({@code false}
     * once an outside completion has claimed the stage).
     */
    public boolean succeed(T value) {
        return claimForOperation() && super.complete(value);
    }

    /**
     * Completes exceptionally, from the operation; returns whether this call completed it
     * ({@code false} once an outside completion has claimed the stage).
     */
    public boolean fail(Throwable cause) {
        return claimForOperation() && super.completeExceptionally(cause);
    }

    /**
     * F2: claims the operation's point of no return, from the operation. Returns {@code false} if an
     * outside completion already won: the operation must then abort instead of committing.
     */
    public boolean enterCommit() {
        return claimForOperation();
    }

    private boolean claimForOperation() {
        return claim.compareAndSet(OPEN, BY_OPERATION) || claim.get() == BY_OPERATION;
    }

    @Override
    public boolean complete(T value) {
        return completeFromOutside(() -> super.complete(value));
    }

    @Override
    public boolean completeExceptionally(Throwable ex) {
        Objects.requireNonNull(ex, "ex");
        return completeFromOutside(() -> super.completeExceptionally(ex));
    }

    /**
     * Cancels the operation unless it already completed or reached its point of no return (F2):
     * then it returns {@code false} ({@code true} if the stage is cancelled already) and the stage
     * reports what the operation did. With an asynchronous abort the stage is cancelled once the
     * abort has finished (F4).
     */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        return completeFromOutside(() -> super.cancel(mayInterruptIfRunning)) || isCancelled();
    }

    /**
     * F1, F2: claims the stage for an outside completion and, if the claim won, stops the operation
     * before {@code completion} completes the stage (which nobody else can complete now). Returns
     * what {@code completion} returned, {@code true} if the abort is asynchronous and will run it
     * (F4), or {@code false} if the claim lost.
     */
    private boolean completeFromOutside(BooleanSupplier completion) {
        if (!claim.compareAndSet(OPEN, FROM_OUTSIDE)) {
            return false;
        }
        onAbort.run();
        Consumer<Runnable> asynchronous = onAbortAsync;
        if (asynchronous == null) {
            return completion.getAsBoolean();
        }
        asynchronous.accept(completion::getAsBoolean); // F4: completes when the abort has finished
        return true;
    }

    /** Completes through {@link #complete}/{@link #completeExceptionally}, so the operation is aborted first. */
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

    /** Aborts the operation (if it has not completed) before forcing the value; an asynchronous abort is not waited for. */
    @Override
    public void obtrudeValue(T value) {
        completeFromOutside(() -> true);
        super.obtrudeValue(value);
    }

    /** Aborts the operation (if it has not completed) before forcing the exception, as {@link #obtrudeValue}. */
    @Override
    public void obtrudeException(Throwable ex) {
        Objects.requireNonNull(ex, "ex");
        completeFromOutside(() -> true);
        super.obtrudeException(ex);
    }

    /**
     * F3: times out on {@link SluiceTimer}, never on the JDK's shared delayer thread: the abort may
     * wait for a system call in flight, and that thread serves every timeout in the JVM. The abort
     * (or, F4, its start) and the stage's completion run on a thread of
     * {@link SluiceTimer#runMayBlock}; an asynchronous abort completes the stage where it ends.
     */
    @Override
    public CompletableFuture<T> orTimeout(long timeout, TimeUnit unit) {
        Objects.requireNonNull(unit, "unit");
        return onTimeout(timeout, unit, () -> completeExceptionally(new TimeoutException()));
    }

    /** F3: as {@link #orTimeout}, completing with {@code value}. */
    @Override
    public CompletableFuture<T> completeOnTimeout(T value, long timeout, TimeUnit unit) {
        Objects.requireNonNull(unit, "unit");
        return onTimeout(timeout, unit, () -> complete(value));
    }

    private CompletableFuture<T> onTimeout(long timeout, TimeUnit unit, Runnable completion) {
        if (!isDone()) {
            ScheduledFuture<?> timer =
                    SluiceTimer.schedule(() -> SluiceTimer.runMayBlock(completion), unit.toNanos(timeout));
            whenComplete((value, error) -> timer.cancel(false));
        }
        return this;
    }

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new CompletableFuture<>();
    }
}
