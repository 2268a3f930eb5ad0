package io.sluice.lab;

import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscription;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ScheduledPublisherTest {

    private static final Schedule ONE_MIB_PER_SECOND = Schedule.constant(1024.0 * 1024.0);
    private static final Schedule UNLIMITED = Schedule.constant(Double.POSITIVE_INFINITY);

    @Test
    void syncEmissionHonoursDemandStrictlyInsideRequest() {
        ManualClock clock = new ManualClock();
        ScheduledPublisher publisher = new ScheduledPublisher(
                Long.MAX_VALUE, 1024, ONE_MIB_PER_SECOND, ScheduledPublisher.Emission.SYNC, clock, null);
        RecordingSubscriber subscriber = new RecordingSubscriber();
        publisher.subscribe(subscriber);
        subscriber.subscription.request(3);
        assertEquals(3, subscriber.items.size(), "exactly the demand, emitted inside request (§1.1)");
        assertEquals(Thread.currentThread().getName(), subscriber.threads.get(0), "on the requesting thread");
        assertEquals(3L * 1_000_000_000L / 1024, clock.sleptNanos(), 1_000, "paced at 1 MiB/s");
        subscriber.subscription.request(2);
        assertEquals(5, subscriber.items.size());
        assertNotSame(subscriber.items.get(0), subscriber.items.get(1));
        assertEquals(1024, subscriber.items.get(4).remaining(), "fresh, full buffers");
    }

    @Test
    void syncEmissionCompletesAfterMaxItems() {
        ScheduledPublisher publisher = new ScheduledPublisher(
                4 * 16, 16, UNLIMITED, ScheduledPublisher.Emission.SYNC, new ManualClock(), null);
        RecordingSubscriber subscriber = new RecordingSubscriber();
        publisher.subscribe(subscriber);
        subscriber.subscription.request(Long.MAX_VALUE);
        assertEquals(4, subscriber.items.size());
        assertTrue(subscriber.completed);
    }

    @Test
    void nonPositiveRequestSignalsIllegalArgument_3_9() {
        ScheduledPublisher publisher = new ScheduledPublisher(
                10 * 16, 16, UNLIMITED, ScheduledPublisher.Emission.SYNC, new ManualClock(), null);
        RecordingSubscriber subscriber = new RecordingSubscriber();
        publisher.subscribe(subscriber);
        subscriber.subscription.request(0);
        assertInstanceOf(IllegalArgumentException.class, subscriber.error);
        assertTrue(subscriber.error.getMessage().contains("§3.9"), subscriber.error.getMessage());
        assertEquals(0, subscriber.items.size());
    }

    @Test
    void asyncEmissionRunsOnItsOwnThreadAndStopsOnCancel() throws Exception {
        long[] probed = new long[1];
        ScheduledPublisher publisher = new ScheduledPublisher(
                Long.MAX_VALUE,
                64,
                UNLIMITED,
                ScheduledPublisher.Emission.ASYNC,
                PacingClock.system(),
                total -> probed[0] = total);
        RecordingSubscriber subscriber = new RecordingSubscriber();
        publisher.subscribe(subscriber);
        Subscription subscription = awaitSubscription(subscriber);
        subscriber.request(5);
        assertTrue(subscriber.requested.await(10, TimeUnit.SECONDS));
        subscription.cancel();
        assertTrue(publisher.awaitThreads(Duration.ofSeconds(10)), "the producer thread ends after cancel");
        assertEquals(5, subscriber.items.size(), "no item beyond the demand (§1.1)");
        assertTrue(subscriber.threads.get(0).startsWith("scheduled-producer-"), subscriber.threads.get(0));
        assertEquals(5 * 64, probed[0]);
    }

    @Test
    void asyncEmissionCompletes() throws Exception {
        ScheduledPublisher publisher = new ScheduledPublisher(
                3 * 8, 8, UNLIMITED, ScheduledPublisher.Emission.ASYNC, PacingClock.system(), null);
        RecordingSubscriber subscriber = new RecordingSubscriber();
        publisher.subscribe(subscriber);
        awaitSubscription(subscriber).request(10);
        assertTrue(subscriber.terminated.await(10, TimeUnit.SECONDS));
        assertTrue(subscriber.completed);
        assertTrue(publisher.awaitThreads(Duration.ofSeconds(10)));
        assertEquals(3, subscriber.items.size());
    }

    private static Subscription awaitSubscription(RecordingSubscriber subscriber) throws InterruptedException {
        assertTrue(subscriber.subscribed.await(10, TimeUnit.SECONDS), "onSubscribe from the producer thread");
        return subscriber.subscription;
    }
}
