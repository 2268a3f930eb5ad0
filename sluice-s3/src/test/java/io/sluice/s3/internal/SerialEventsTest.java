package io.sluice.s3.internal;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/** E1 and E2: events run one at a time, in order, on a flat stack; a throwing event ends nothing else. */
class SerialEventsTest {

    @Test
    void reentrantEventsRunAfterTheCurrentOneOnTheSameStack_E1() {
        List<String> order = new ArrayList<>();
        AtomicInteger depth = new AtomicInteger();
        AtomicInteger deepest = new AtomicInteger();
        SerialEvents events = new SerialEvents(error -> {
            throw new AssertionError(error);
        });
        Runnable[] chain = new Runnable[1];
        AtomicInteger left = new AtomicInteger(10_000);
        chain[0] = () -> {
            deepest.accumulateAndGet(depth.incrementAndGet(), Math::max);
            if (left.decrementAndGet() > 0) {
                events.submit(chain[0]);
            }
            depth.decrementAndGet();
        };
        events.submit(() -> {
            order.add("first");
            events.submit(() -> order.add("second"));
            order.add("first done");
        });
        events.submit(chain[0]);

        assertEquals(List.of("first", "first done", "second"), order);
        assertEquals(0, left.get());
        assertEquals(1, deepest.get(), "the stack stays flat");
    }

    @Test
    void eventsFromManyThreadsNeverOverlapAndAllRun_E1() throws Exception {
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        int[] counter = new int[1]; // drain-confined: no atomics needed (E1)
        SerialEvents events = new SerialEvents(error -> {
            throw new AssertionError(error);
        });
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
                    events.submit(() -> {
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
        events.submit(() -> seen.set(counter[0]));
        assertEquals(threads * perThread, seen.get());
    }

    @Test
    void anEventThatThrowsGoesToTheFailureCallbackAndTheDrainGoesOn_E2() {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<String> ran = new ArrayList<>();
        SerialEvents events = new SerialEvents(failure::set);
        IllegalStateException bug = new IllegalStateException("bug");
        events.submit(() -> {
            events.submit(() -> ran.add("after"));
            throw bug;
        });
        assertSame(bug, failure.get());
        assertEquals(List.of("after"), ran);
    }

    @Test
    void aFailureCallbackThatThrowsIsToldOnceMoreAndTheDrainStaysHeld_E2() {
        List<Throwable> failures = new ArrayList<>();
        List<String> ran = new ArrayList<>();
        IllegalStateException callbackBug = new IllegalStateException("callback");
        SerialEvents events = new SerialEvents(error -> {
            failures.add(error);
            if (failures.size() == 1) {
                throw callbackBug;
            }
        });
        IllegalStateException bug = new IllegalStateException("bug");
        events.submit(() -> {
            throw bug;
        });
        events.submit(() -> ran.add("never"));
        assertEquals(List.of(bug, callbackBug), failures);
        assertEquals(List.of(), ran, "no event runs once the drain is held");
    }
}
