package io.sluice.server.load;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SlowClientRampTest {

    private static final long MIB = 1024 * 1024;

    @Test
    void aQueueStillFillingIsNotSettledAndAFullOneIs() {
        assertFalse(SlowClientRamp.settled(100 * MIB, 200 * MIB));
        assertFalse(SlowClientRamp.settled(800 * MIB, 810 * MIB)); // 1.25% growth
        assertTrue(SlowClientRamp.settled(800 * MIB, 807 * MIB)); // under 1%
        assertTrue(SlowClientRamp.settled(800 * MIB, 700 * MIB)); // readers drained some
        assertTrue(SlowClientRamp.settled(0, MIB / 2)); // a small queue: 1 MiB slack
        assertFalse(SlowClientRamp.settled(0, 2 * MIB));
    }

    @Test
    void waitsUntilTheQueueStopsGrowingForAWholeWindow() throws InterruptedException {
        AtomicInteger polls = new AtomicInteger();
        int growingPolls = 8; // 2 s of polls, 50 MiB more each
        SlowClientRamp.Outcome outcome =
                SlowClientRamp.await(() -> Math.min(polls.getAndIncrement(), growingPolls) * 50 * MIB, 20_000);
        assertTrue(outcome.settled(), outcome.describe());
        assertEquals(growingPolls * 50 * MIB, outcome.sendQueueBytes());
        // Not before a whole window (1 s = 4 polls) of the plateau was seen.
        long windowPolls = SlowClientRamp.WINDOW_MILLIS / SlowClientRamp.POLL_MILLIS;
        assertTrue(polls.get() >= growingPolls + windowPolls, "settled after " + polls.get() + " polls");
        assertTrue(
                outcome.describe().startsWith("ramp ") && outcome.describe().contains("settled at 400 MiB"),
                outcome.describe());
    }

    @Test
    void givesUpAtTheMaximumWhenTheQueueKeepsGrowing() throws InterruptedException {
        AtomicInteger polls = new AtomicInteger();
        SlowClientRamp.Outcome outcome = SlowClientRamp.await(() -> polls.getAndIncrement() * 100 * MIB, 1_500);
        assertFalse(outcome.settled());
        assertTrue(outcome.seconds() >= 1.5, outcome.describe());
        assertTrue(outcome.describe().contains("still growing"), outcome.describe());
    }

    @Test
    void waitsTheMaximumWhereTheQueueCannotBeMeasured() throws InterruptedException {
        SlowClientRamp.Outcome outcome = SlowClientRamp.await(() -> -1, 300);
        assertFalse(outcome.settled());
        assertEquals(-1, outcome.sendQueueBytes());
        assertTrue(outcome.describe().contains("not measurable"), outcome.describe());
    }
}
