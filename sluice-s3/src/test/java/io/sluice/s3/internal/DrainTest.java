package io.sluice.s3.internal;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

class DrainTest {

    @Test
    void reentrantEventsRunAfterTheCurrentOneOnTheSameStack_D3() {
        List<String> order = new ArrayList<>();
        AtomicInteger depth = new AtomicInteger();
        AtomicInteger deepest = new AtomicInteger();
        Drain drain = new Drain(error -> { throw new AssertionError(error); });
        Runnable[] chain = new Runnable[1];
        AtomicInteger left = new AtomicInteger(10_000);
        chain[0] = () -> {
            deepest.accumulateAndGet(depth.incrementAndGet(), Math::max);
            if (left.decrementAndGet() > 0) {
                drain.submit(chain[0]);
            }
            depth.decrementAndGet();
        };
        drain.submit(() -> {
            order.add("first");
            drain.submit(() -> order.add("second"));
            order.add("first done");
        });
        drain.submit(chain[0]);

        assertEquals(List.of("first", "first done", "second"), order);
        assertEquals(0, left.get());
        assertEquals(1, deepest.get(), "the stack stays flat");
    }

    @Test
    void eventsFromManyThreadsNeverOverlap_D1() throws Exception {
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        int[] counter = new int[1];                      // drain-confined: no atomics needed (D2)
        Drain drain = new Drain(error -> { throw new AssertionError(error); });
        int threads = 4;
        int perThread = 20_000;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread worker = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int j = 0; j < perThread; j++) {
                    drain.submit(() -> {
                        if (inside.incrementAndGet() != 1) {
                            overlaps.incrementAndGet();
                        }
                        counter[0]++;
                        inside.decrementAndGet();
                    });
                }
            });
            worker.start();
            workers.add(worker);
        }
        start.countDown();
        for (Thread worker : workers) {
            worker.join();
        }
        assertEquals(0, overlaps.get());
        AtomicInteger seen = new AtomicInteger();
        drain.submit(() -> seen.set(counter[0]));
        assertEquals(threads * perThread, seen.get());
    }

    @Test
    void anEventThatThrowsGoesToTheFailureCallbackAndTheDrainGoesOn_D4() {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<String> ran = new ArrayList<>();
        Drain drain = new Drain(failure::set);
        IllegalStateException bug = new IllegalStateException("bug");
        drain.submit(() -> {
            drain.submit(() -> ran.add("after"));
            throw bug;
        });
        assertSame(bug, failure.get());
        assertEquals(List.of("after"), ran);
    }
}
