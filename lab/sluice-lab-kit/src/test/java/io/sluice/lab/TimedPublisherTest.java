package io.sluice.lab;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link ScheduledPublisher#timed}: a client body on a shared timer, with a burst allowance. */
class TimedPublisherTest {

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stopTimer() {
        timer.shutdownNow();
    }

    @Test
    void emitsTheTotalInItemsOfAtMostTheSizeThenCompletes() throws Exception {
        RecordingSubscriber recorder = new RecordingSubscriber();
        ScheduledPublisher.timed(2 * 8192 + 5, 8192, Schedule.constant(1e9), 8192, timer, PacingClock.system())
                .subscribe(recorder);
        recorder.subscription.request(10);
        assertTrue(recorder.terminated.await(5, TimeUnit.SECONDS) && recorder.completed);
        assertEquals(List.of(8192, 8192, 5), recorder.sizes());
        assertTrue(
                recorder.threads.stream()
                        .allMatch(threadName ->
                                !threadName.equals(Thread.currentThread().getName())),
                "emitted on the timer: " + recorder.threads);
    }

    @Test
    void theBurstIsThereAtOnceAndTheRestComesAtTheRate() throws Exception {
        // 80 KiB/s: an 8 KiB item every 100 ms once the 32 KiB burst is spent
        RecordingSubscriber recorder = new RecordingSubscriber();
        ScheduledPublisher.timed(1 << 20, 8192, Schedule.constant(80 * 1024), 4 * 8192, timer, PacingClock.system())
                .subscribe(recorder);
        long start = System.nanoTime();
        recorder.request(4);
        assertTrue(recorder.requested.await(5, TimeUnit.SECONDS));
        long burst = recorder.arrivals.get(3) - start;
        assertTrue(burst < TimeUnit.MILLISECONDS.toNanos(60), "the burst took " + burst / 1_000_000 + " ms");
        recorder.request(1);
        assertTrue(recorder.requested.await(5, TimeUnit.SECONDS));
        long next = recorder.arrivals.get(4) - start;
        assertTrue(
                next >= TimeUnit.MILLISECONDS.toNanos(90),
                "the item after the burst came after " + next / 1_000_000 + " ms, not at the rate");
        recorder.subscription.cancel();
    }

    @Test
    void aNonPositiveRequestFailsTheStream_3_9() throws Exception {
        RecordingSubscriber recorder = new RecordingSubscriber();
        ScheduledPublisher.timed(8192, 8192, Schedule.constant(1e9), 8192, timer, PacingClock.system())
                .subscribe(recorder);
        recorder.subscription.request(0);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (recorder.error == null && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertTrue(recorder.error instanceof IllegalArgumentException, "error: " + recorder.error);
        assertEquals(List.of(), recorder.sizes());
    }
}
