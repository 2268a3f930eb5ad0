package io.sluice.internal;

import io.sluice.IoExecutors;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * H2 when watched calls nest: watch() nests in the atomic copy's read (AbortGate.open watches the
 * OutsideClosableSource step, which calls FileReadSource.open, which watches again). If the outer
 * call has been counted stuck before the inner one starts (a thread descheduled or a GC pause of
 * 250 ms there), the inner watch must leave the outer call's state alone, or the thread is never
 * given back and the pool stays one thread larger for good (H1, H2).
 */
class CompensatingPoolTest {

    @Test
    void aNestedWatchAfterTheOuterCallWasCountedStuckGivesTheThreadBack() throws Exception {
        ThreadPoolExecutor pool = (ThreadPoolExecutor) IoExecutors.files();
        int size = pool.getCorePoolSize();
        CompletableFuture<Void> done = CompletableFuture.runAsync(
                () -> {
                    try {
                        CompensatingPool.watch(() -> {
                            try {
                                Thread.sleep(500);
                            } catch (InterruptedException e) {
                                throw new AssertionError(e);
                            } // stands in for a 250 ms+ stall before the inner open
                            return CompensatingPool.watch(() -> null);
                        });
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                },
                pool);
        done.get(10, TimeUnit.SECONDS);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (pool.getCorePoolSize() != size && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(size, pool.getCorePoolSize(), "the pool kept a thread for a call that returned");
    }
}
