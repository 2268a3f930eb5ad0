package io.sluice.internal;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** AbortGate when the open step ends in an Error or a RuntimeException (G2). */
class AbortGateTest {

    /**
     * An open step that throws an Error (OOM, StackOverflowError, an AssertionError in a test
     * opener) must not leave {@code opening} set: a later abort would wait the full 50 ms, then
     * defer its close step to an opening thread that is gone, and the close would never run.
     */
    @Test
    void anAbortAfterAnOpenStepThatThrewAnErrorStillRunsItsCloseStep() throws Exception {
        AbortGate gate = new AbortGate();
        assertThrows(
                OutOfMemoryError.class,
                () -> gate.open(
                        () -> {
                            throw new OutOfMemoryError("the open step failed with an Error");
                        },
                        "open"));
        AtomicBoolean closed = new AtomicBoolean();
        long start = System.nanoTime();
        assertTrue(gate.abort(() -> closed.set(true)));
        long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(closed.get(), "the close step never ran (abort waited " + took + " ms, then deferred it)");
    }

    /** A RuntimeException from the step is dropped when the abort's close was deferred. */
    @Test
    void aDeferredCloseKeepsTheStepsRuntimeException() throws Exception {
        AbortGate gate = new AbortGate(0);
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<Exception> lost =
                new AtomicReference<>(); // what the opener caught without the step's exception
        Thread opener = new Thread(() -> {
            try {
                gate.open(
                        () -> {
                            entered.countDown();
                            try {
                                release.await();
                            } catch (InterruptedException e) {
                                throw new AssertionError(e);
                            }
                            throw new IllegalStateException("the open step's bug");
                        },
                        "open");
            } catch (Exception e) {
                boolean kept = e instanceof IllegalStateException || e.getSuppressed().length > 0;
                if (!kept) {
                    lost.set(e);
                }
            }
        });
        opener.start();
        assertTrue(entered.await(5, TimeUnit.SECONDS));
        gate.abort(() -> {});
        release.countDown();
        opener.join(5000);
        assertTrue(lost.get() == null, "the step's IllegalStateException was lost: got only " + lost.get());
    }
}
