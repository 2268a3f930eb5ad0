package io.sluice.internal.write;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The flattener's invariants when the upstream's signals (serial, §1.3) land while the
 * downstream's {@code request} runs the drain: on real threads, bounded in iterations and in time
 * (about a second), counting every violation seen; and, where the window is too narrow for real
 * threads, with the drain held inside it.
 */
class BufferFlattenerRaceTest {

    private static final long TIME_LIMIT_NANOS = TimeUnit.MILLISECONDS.toNanos(1500);

    private static ExecutorService upstreamThread;

    @BeforeAll
    static void startUpstreamThread() {
        upstreamThread = Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "race-upstream");
            thread.setDaemon(true);
            return thread;
        });
    }

    @AfterAll
    static void stopUpstreamThread() {
        upstreamThread.shutdownNow();
    }

    /**
     * F3: the last list followed at once by {@code onComplete}, landing while a drain pass on the
     * downstream's thread sits between its look at the queue and its look at the upstream's state.
     * That window is a few instructions wide, too narrow for real threads to hit in a test's time,
     * so the queue widens it: its {@code isEmpty} answers, then runs the upstream's two signals
     * before returning that (now stale) answer, as if the drain's thread were preempted there.
     * The downstream asked for the list, so its buffer is owed before the completion (§1.7).
     */
    @Test
    void theLastListAndOnCompleteLandingInsideADrainPassAreDelivered_F3() throws Exception {
        BufferFlattener flattener = new BufferFlattener();
        PausingQueue queue = PausingQueue.installIn(flattener);
        CountingUpstream upstream = new CountingUpstream();
        CountingDownstream downstream = new CountingDownstream();
        flattener.subscribe(downstream);
        flattener.onSubscribe(upstream);
        downstream.subscription.request(1);
        assertEquals(1, upstream.requests.get(), "the first list is requested");

        queue.afterNextLook = () -> { // the upstream's thread, "during" the pass
            flattener.onNext(List.of(ByteBuffer.allocate(3)));
            flattener.onComplete();
        };
        downstream.subscription.request(1); // runs a drain pass

        assertNull(queue.afterNextLook, "the drain looked at its queue");
        assertEquals(3, downstream.bytes.get(), "the last list's bytes, before the completion");
        assertEquals(1, downstream.completions.get());
        assertEquals(1, upstream.requests.get(), "F1: no second list was requested");
    }

    /** A queue whose next {@code isEmpty} runs a task between taking its answer and returning it. */
    private static final class PausingQueue extends ConcurrentLinkedQueue<ByteBuffer> {
        volatile Runnable afterNextLook;

        /** Swaps the flattener's (still empty) queue for this one: no seam in the class for tests. */
        static PausingQueue installIn(BufferFlattener flattener) throws ReflectiveOperationException {
            Field buffers = BufferFlattener.class.getDeclaredField("buffers");
            buffers.setAccessible(true);
            PausingQueue queue = new PausingQueue();
            buffers.set(flattener, queue);
            return queue;
        }

        @Override
        public boolean isEmpty() {
            boolean empty = super.isEmpty();
            Runnable task = afterNextLook;
            if (task != null) {
                afterNextLook = null;
                task.run();
            }
            return empty;
        }
    }

    /**
     * F1: a list is requested only when none is outstanding and every buffer of the previous one
     * has reached the downstream. The upstream answers each request from its own thread while the
     * downstream's thread keeps requesting; the upstream checks F1 at every request it gets.
     */
    @Test
    void aListIsNeverRequestedWhileOneIsOutstandingOrQueued_F1() throws Exception {
        long deadline = System.nanoTime() + TIME_LIMIT_NANOS;
        int runs = 0;
        List<String> violations = new ArrayList<>();
        while (runs < 100 && System.nanoTime() < deadline) {
            runs++;
            BufferFlattener flattener = new BufferFlattener();
            CountingDownstream downstream = new CountingDownstream();
            CheckingUpstream upstream = new CheckingUpstream(downstream);
            flattener.subscribe(downstream);
            flattener.onSubscribe(upstream);
            int lists = 2_000;

            Future<?> sender = upstreamThread.submit(() -> {
                for (int sent = 0; sent < lists; sent++) {
                    while (upstream.requests.get() <= sent) {
                        if (downstream.terminated()) {
                            return null;
                        }
                        Thread.onSpinWait();
                    }
                    upstream.sentBytes.addAndGet(2); // counted before it is handed over
                    flattener.onNext(List.of(ByteBuffer.allocate(1), ByteBuffer.allocate(1)));
                }
                flattener.onComplete();
                return null;
            });
            while (!downstream.terminated() && !sender.isDone()) {
                downstream.subscription.request(1);
            }
            sender.get(5, TimeUnit.SECONDS);
            downstream.subscription.request(Long.MAX_VALUE); // drain what is left

            violations.addAll(upstream.violations);
            if (downstream.bytes.get() != 2L * lists || downstream.completions.get() != 1) {
                violations.add("run " + runs + ": " + downstream.bytes.get() + " of " + 2L * lists + " bytes, "
                        + downstream.completions.get() + " completions");
            }
        }
        assertTrue(
                violations.isEmpty(),
                "F1 broken " + violations.size() + " times in " + runs + " runs, e.g. "
                        + violations.subList(0, Math.min(3, violations.size())));
    }

    /** Counts requests; the test's upstream thread answers them. */
    private static class CountingUpstream implements Flow.Subscription {
        final AtomicLong requests = new AtomicLong();

        @Override
        public void request(long n) {
            requests.addAndGet(n);
        }

        @Override
        public void cancel() {}
    }

    /** Checks F1 at every request: nothing outstanding (all answered), nothing queued (all delivered). */
    private static final class CheckingUpstream extends CountingUpstream {
        final AtomicLong sentBytes = new AtomicLong();
        final List<String> violations = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final CountingDownstream downstream;

        CheckingUpstream(CountingDownstream downstream) {
            this.downstream = downstream;
        }

        @Override
        public void request(long n) {
            long delivered = downstream.bytes.get();
            long sent = sentBytes.get();
            if (n != 1 || delivered != sent) {
                violations.add("request(" + n + ") after list " + requests.get() + " with " + (sent - delivered)
                        + " bytes sent but not yet delivered");
            }
            super.request(n);
        }
    }

    private static final class CountingDownstream implements Flow.Subscriber<ByteBuffer> {
        final AtomicLong bytes = new AtomicLong();
        final AtomicInteger completions = new AtomicInteger();
        final AtomicReference<Throwable> error = new AtomicReference<>();
        volatile Flow.Subscription subscription;

        boolean terminated() {
            return completions.get() > 0 || error.get() != null;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            this.subscription = subscription;
        }

        @Override
        public void onNext(ByteBuffer item) {
            bytes.addAndGet(item.remaining());
        }

        @Override
        public void onError(Throwable throwable) {
            error.set(throwable);
        }

        @Override
        public void onComplete() {
            completions.incrementAndGet();
        }
    }
}
