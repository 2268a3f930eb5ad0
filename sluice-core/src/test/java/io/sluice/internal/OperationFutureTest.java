package io.sluice.internal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** F1, F2 and F4: an outside completion stops the operation before any dependent of the stage runs. */
class OperationFutureTest {

    /** The ways a user completes a stage from outside. */
    enum OutsideCompletion {
        CANCEL(future -> future.cancel(true)),
        COMPLETE(future -> future.complete(42L)),
        COMPLETE_EXCEPTIONALLY(future -> future.completeExceptionally(new IllegalStateException("user"))),
        OR_TIMEOUT(future -> future.orTimeout(1, TimeUnit.MILLISECONDS)),
        COMPLETE_ON_TIMEOUT(future -> future.completeOnTimeout(7L, 1, TimeUnit.MILLISECONDS)),
        COMPLETE_ASYNC(future -> future.completeAsync(() -> 3L)),
        OBTRUDE_VALUE(future -> future.obtrudeValue(4L)),
        OBTRUDE_EXCEPTION(future -> future.obtrudeException(new IllegalStateException("obtruded")));

        final Consumer<OperationFuture<Long>> action;

        OutsideCompletion(Consumer<OperationFuture<Long>> action) {
            this.action = action;
        }
    }

    @ParameterizedTest
    @EnumSource(OutsideCompletion.class)
    void abortHookHasReturnedBeforeAnyDependentRuns_F1(OutsideCompletion completion) throws Exception {
        OperationFuture<Long> future = new OperationFuture<>();
        AtomicBoolean hookReturned = new AtomicBoolean();
        future.onAbort(() -> hookReturned.set(true));
        AtomicBoolean seenByDependent = new AtomicBoolean();
        CountDownLatch dependentRan = new CountDownLatch(1);
        future.whenComplete((value, error) -> {
            seenByDependent.set(hookReturned.get());
            dependentRan.countDown();
        });
        completion.action.accept(future);
        assertTrue(dependentRan.await(10, TimeUnit.SECONDS), "the dependent ran");
        assertTrue(seenByDependent.get(), "the abort hook had returned when the dependent ran");
    }

    @Test
    void hookDoesNotRunWhenTheOperationCompletedFirst_F1() {
        OperationFuture<Long> future = new OperationFuture<>();
        AtomicInteger hookRuns = new AtomicInteger();
        future.onAbort(hookRuns::incrementAndGet);
        assertTrue(future.succeed(5L));
        assertFalse(future.cancel(true));
        assertFalse(future.complete(1L));
        assertFalse(future.completeExceptionally(new RuntimeException()));
        assertEquals(0, hookRuns.get());
        assertEquals(5L, future.join());
    }

    @Test
    void afterAnOutsideClaimTheOperationsOwnCompletionChangesNothing_F1() {
        OperationFuture<Long> future = new OperationFuture<>();
        AtomicBoolean failedInsideHook = new AtomicBoolean();
        future.onAbort(() -> failedInsideHook.set(future.fail(new IllegalStateException("operation"))));
        assertTrue(future.cancel(true));
        assertFalse(failedInsideHook.get(), "the operation's fail lost to the cancel that claimed first");
        assertFalse(future.succeed(1L));
        assertTrue(future.isCancelled());
    }

    @Test
    void anOperationThatFailedFirstIsNotAborted_F1() throws Exception {
        for (int round = 0; round < 2_000; round++) {
            OperationFuture<Long> future = new OperationFuture<>();
            AtomicInteger hookRuns = new AtomicInteger();
            future.onAbort(hookRuns::incrementAndGet);
            CountDownLatch start = new CountDownLatch(1);
            AtomicBoolean failed = new AtomicBoolean();
            Thread operation = new Thread(() -> {
                await(start);
                failed.set(future.fail(new IllegalStateException("operation")));
            });
            operation.start();
            start.countDown();
            boolean completed = future.complete(9L);
            operation.join();
            assertTrue(failed.get() != completed, "exactly one of fail and complete wins");
            assertEquals(completed ? 1 : 0, hookRuns.get(), "the hook runs iff the outside completion won");
        }
    }

    @Test
    void nullExceptionIsRefusedWithoutAbortingTheOperation() {
        OperationFuture<Long> future = new OperationFuture<>();
        AtomicInteger hookRuns = new AtomicInteger();
        future.onAbort(hookRuns::incrementAndGet);
        assertThrows(NullPointerException.class, () -> future.completeExceptionally(null));
        assertEquals(0, hookRuns.get());
        assertFalse(future.isDone());
    }

    @Test
    void commitClaimAndOutsideCompletionNeverBothWin_F2() throws Exception {
        for (int round = 0; round < 2_000; round++) {
            OperationFuture<Long> future = new OperationFuture<>();
            AtomicInteger hookRuns = new AtomicInteger();
            future.onAbort(hookRuns::incrementAndGet);
            CountDownLatch start = new CountDownLatch(1);
            AtomicBoolean committed = new AtomicBoolean();
            Thread operation = new Thread(() -> {
                await(start);
                if (future.enterCommit()) {
                    committed.set(true);
                    future.succeed(1L);
                }
            });
            operation.start();
            start.countDown();
            boolean cancelled = future.cancel(true);
            operation.join();
            assertTrue(committed.get() != cancelled, "exactly one of commit and cancel wins");
            assertEquals(cancelled ? 1 : 0, hookRuns.get(), "the hook runs iff the cancel won");
            assertEquals(cancelled, future.isCancelled());
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = OutsideCompletion.class,
            mode = EnumSource.Mode.EXCLUDE,
            names = {"OBTRUDE_VALUE", "OBTRUDE_EXCEPTION"})
    void withAnAsynchronousAbortTheStageCompletesOnlyWhenTheAbortCallsBack_F4(OutsideCompletion completion)
            throws Exception {
        OperationFuture<Long> future = new OperationFuture<>();
        AtomicBoolean syncHookRan = new AtomicBoolean();
        AtomicBoolean syncHookRanFirst = new AtomicBoolean();
        CompletableFuture<Runnable> handedOver = new CompletableFuture<>();
        future.onAbort(() -> syncHookRan.set(true));
        future.onAbortAsync(callback -> {
            syncHookRanFirst.set(syncHookRan.get());
            handedOver.complete(callback);
        });
        AtomicBoolean dependentRan = new AtomicBoolean();
        future.whenComplete((value, error) -> dependentRan.set(true));

        completion.action.accept(future);
        Runnable callback = handedOver.get(10, TimeUnit.SECONDS);
        assertTrue(syncHookRanFirst.get(), "the synchronous hook had returned before the asynchronous one ran");
        assertFalse(future.isDone(), "not done before the abort calls back");
        assertFalse(dependentRan.get());
        assertFalse(future.succeed(1L), "the operation lost the claim");

        callback.run();
        assertTrue(future.isDone());
        assertTrue(dependentRan.get());
    }

    @Test
    void anAsynchronousAbortMakesCancelReturnTrueBeforeTheStageIsCancelled_F4() {
        OperationFuture<Long> future = new OperationFuture<>();
        AtomicInteger handovers = new AtomicInteger();
        AtomicReference<Runnable> callback = new AtomicReference<>();
        future.onAbortAsync(completion -> {
            handovers.incrementAndGet();
            callback.set(completion);
        });

        assertTrue(future.cancel(true));
        assertFalse(future.isDone());
        assertFalse(future.isCancelled());
        assertFalse(future.complete(3L), "the claim is taken");
        assertFalse(future.cancel(true), "not cancelled yet, and the claim is taken");
        callback.get().run();

        assertTrue(future.isCancelled());
        assertTrue(future.cancel(true), "cancelled now");
        assertEquals(1, handovers.get(), "the completion is handed over once");
    }

    @Test
    void anAsynchronousAbortCompletesAsTheOutsideCompletionAsked_F4() throws Exception {
        OperationFuture<Long> future = new OperationFuture<>();
        AtomicReference<Runnable> callback = new AtomicReference<>();
        future.onAbortAsync(callback::set);
        assertTrue(future.complete(42L));
        callback.get().run();
        assertEquals(42L, future.get());

        OperationFuture<Long> failing = new OperationFuture<>();
        failing.onAbortAsync(callback::set);
        IllegalStateException error = new IllegalStateException("user");
        assertTrue(failing.completeExceptionally(error));
        callback.get().run();
        assertTrue(failing.isCompletedExceptionally());
        assertEquals(error, assertThrows(Exception.class, failing::join).getCause());
    }

    @Test
    void aTimeoutHandsAnAsynchronousAbortToSluicesThreadNotTheJdksDelayer_F3_F4() throws Exception {
        OperationFuture<Long> future = new OperationFuture<>();
        CompletableFuture<String> abortThread = new CompletableFuture<>();
        future.onAbortAsync(completion -> {
            abortThread.complete(Thread.currentThread().getName());
            completion.run();
        });
        future.orTimeout(1, TimeUnit.MILLISECONDS);
        assertTrue(abortThread.get(10, TimeUnit.SECONDS).startsWith("sluice-timeout-"), abortThread.get());
        assertThrows(Exception.class, future::join);
    }

    @Test
    void obtrudingForcesTheResultAtOnceAndStillStartsTheAsynchronousAbort_F4() {
        OperationFuture<Long> future = new OperationFuture<>();
        AtomicReference<Runnable> callback = new AtomicReference<>();
        future.onAbortAsync(callback::set);
        future.obtrudeValue(4L);
        assertEquals(4L, future.join());
        callback.get().run();
        assertEquals(4L, future.join(), "the abort's completion changes nothing after an obtrude");
    }

    @Test
    void anAsynchronousAbortIsNotStartedOnceTheOperationCommitted_F2_F4() {
        OperationFuture<Long> future = new OperationFuture<>();
        AtomicReference<Runnable> callback = new AtomicReference<>();
        future.onAbortAsync(callback::set);
        assertTrue(future.enterCommit());
        assertFalse(future.cancel(true));
        assertFalse(future.complete(1L));
        assertNull(callback.get());
        assertTrue(future.succeed(5L));
        assertEquals(5L, future.join());
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
