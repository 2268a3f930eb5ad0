package io.sluice.bench.adaptive;

import io.sluice.testkit.PacingClock;
import io.sluice.testkit.ScheduledPublisher;

import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ScheduledPublisherTest {

    /** Records signals; thread-safe enough for one emitter plus the test thread after a latch. */
    private static final class Recorder implements Subscriber<ByteBuffer> {
        final List<ByteBuffer> items = new ArrayList<>();
        final List<Thread> threads = new ArrayList<>();
        final CountDownLatch terminated = new CountDownLatch(1);
        final CountDownLatch subscribed = new CountDownLatch(1);
        volatile Subscription subscription;
        volatile Throwable error;
        volatile boolean completed;
        volatile CountDownLatch itemsSeen = new CountDownLatch(0);

        @Override
        public void onSubscribe(Subscription s) {
            subscription = s;
            subscribed.countDown();
        }

        @Override
        public synchronized void onNext(ByteBuffer item) {
            items.add(item);
            threads.add(Thread.currentThread());
            itemsSeen.countDown();
        }

        @Override
        public void onError(Throwable t) {
            error = t;
            terminated.countDown();
        }

        @Override
        public void onComplete() {
            completed = true;
            terminated.countDown();
        }
    }

    @Test
    void syncEmissionHonoursDemandStrictlyInsideRequest() {
        ManualClock clock = new ManualClock();
        ScheduledPublisher publisher = new ScheduledPublisher(1024, Long.MAX_VALUE, RateSchedule.constantMiBps(1),
                ScheduledPublisher.Emission.SYNC, clock, null);
        Recorder recorder = new Recorder();
        publisher.subscribe(recorder);
        recorder.subscription.request(3);
        assertEquals(3, recorder.items.size(), "exactly the demand, emitted inside request (§1.1)");
        assertSame(Thread.currentThread(), recorder.threads.get(0));
        assertEquals(3L * 1_000_000_000L / 1024, clock.sleptNanos(), 1_000, "paced at 1 MiB/s");
        recorder.subscription.request(2);
        assertEquals(5, recorder.items.size());
        assertNotSame(recorder.items.get(0), recorder.items.get(1));
        assertEquals(1024, recorder.items.get(4).remaining(), "fresh, full buffers");
    }

    @Test
    void syncEmissionCompletesAfterMaxItems() {
        ScheduledPublisher publisher = new ScheduledPublisher(16, 4, RateSchedule.unlimited(),
                ScheduledPublisher.Emission.SYNC, new ManualClock(), null);
        Recorder recorder = new Recorder();
        publisher.subscribe(recorder);
        recorder.subscription.request(Long.MAX_VALUE);
        assertEquals(4, recorder.items.size());
        assertTrue(recorder.completed);
    }

    @Test
    void nonPositiveRequestSignalsIllegalArgument_3_9() {
        ScheduledPublisher publisher = new ScheduledPublisher(16, 10, RateSchedule.unlimited(),
                ScheduledPublisher.Emission.SYNC, new ManualClock(), null);
        Recorder recorder = new Recorder();
        publisher.subscribe(recorder);
        recorder.subscription.request(0);
        assertInstanceOf(IllegalArgumentException.class, recorder.error);
        assertTrue(recorder.error.getMessage().contains("§3.9"), recorder.error.getMessage());
        assertEquals(0, recorder.items.size());
    }

    @Test
    void asyncEmissionRunsOnItsOwnThreadAndStopsOnCancel() throws Exception {
        long[] probed = new long[1];
        ScheduledPublisher publisher = new ScheduledPublisher(64, Long.MAX_VALUE, RateSchedule.unlimited(),
                ScheduledPublisher.Emission.ASYNC, PacingClock.system(), total -> probed[0] = total);
        Recorder recorder = new Recorder();
        recorder.itemsSeen = new CountDownLatch(5);
        publisher.subscribe(recorder);
        Subscription subscription = awaitSubscription(recorder);
        subscription.request(5);
        assertTrue(recorder.itemsSeen.await(10, TimeUnit.SECONDS));
        subscription.cancel();
        assertTrue(publisher.awaitThreads(Duration.ofSeconds(10)), "the producer thread ends after cancel");
        synchronized (recorder) {
            assertEquals(5, recorder.items.size(), "no item beyond the demand (§1.1)");
            assertTrue(recorder.threads.get(0).getName().startsWith("scheduled-producer-"));
        }
        assertEquals(5 * 64, probed[0]);
    }

    @Test
    void asyncEmissionCompletes() throws Exception {
        ScheduledPublisher publisher = new ScheduledPublisher(8, 3, RateSchedule.unlimited(),
                ScheduledPublisher.Emission.ASYNC, PacingClock.system(), null);
        Recorder recorder = new Recorder();
        publisher.subscribe(recorder);
        awaitSubscription(recorder).request(10);
        assertTrue(recorder.terminated.await(10, TimeUnit.SECONDS));
        assertTrue(recorder.completed);
        assertTrue(publisher.awaitThreads(Duration.ofSeconds(10)));
        synchronized (recorder) {
            assertEquals(3, recorder.items.size());
        }
    }

    private static Subscription awaitSubscription(Recorder recorder) throws InterruptedException {
        assertTrue(recorder.subscribed.await(10, TimeUnit.SECONDS), "onSubscribe from the producer thread");
        return recorder.subscription;
    }
}
