package io.sluice.s3.internal;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UploadFutureTest {

    @Test
    void cancelReturnsAtOnceAndTheStageCompletesWhenTheAbortCallsBack_U1_U3() {
        UploadFuture<String> stage = new UploadFuture<>();
        AtomicReference<Runnable> aborted = new AtomicReference<>();
        AtomicInteger aborts = new AtomicInteger();
        stage.onAbort(completion -> {
            aborts.incrementAndGet();
            aborted.set(completion);
        });

        assertTrue(stage.cancel(true));
        assertFalse(stage.isDone(), "U3: not done before the abort has finished");
        assertFalse(stage.succeed("late"), "U1: the upload lost the claim");
        aborted.get().run();

        assertTrue(stage.isCancelled());
        assertEquals(1, aborts.get(), "U1: the hook runs once");
    }

    @Test
    void afterTheCommitClaimOutsideCompletionsLose_U2() throws Exception {
        UploadFuture<String> stage = new UploadFuture<>();
        AtomicInteger aborts = new AtomicInteger();
        stage.onAbort(completion -> aborts.incrementAndGet());

        assertTrue(stage.enterCommit());
        assertFalse(stage.cancel(true));
        assertFalse(stage.complete("outside"));
        assertTrue(stage.succeed("stored"));
        assertEquals("stored", stage.get());
        assertEquals(0, aborts.get());
    }

    @Test
    void orTimeoutAbortsThenFailsWithTheTimeout() throws Exception {
        UploadFuture<String> stage = new UploadFuture<>();
        CompletableFuture<Runnable> aborted = new CompletableFuture<>();
        stage.onAbort(aborted::complete);
        stage.orTimeout(10, TimeUnit.MILLISECONDS);

        Runnable completion = aborted.get(5, TimeUnit.SECONDS);
        assertFalse(stage.isDone());
        completion.run();
        Throwable failure = assertThrows(Exception.class, stage::join).getCause();
        assertInstanceOf(TimeoutException.class, failure);
    }

    @Test
    void dependentsAreOrdinaryFutures() {
        UploadFuture<String> stage = new UploadFuture<>();
        stage.onAbort(Runnable::run);
        CompletableFuture<String> next = stage.thenApply(value -> value + "!");
        assertFalse(next instanceof UploadFuture);
        next.cancel(true);
        assertThrows(CancellationException.class, next::join);
        assertFalse(stage.isDone(), "cancelling a dependent does not abort the upload");
    }
}
