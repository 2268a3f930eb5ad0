package io.sluice.server.ws;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The lanes' flags: committed results hold them, so each names its lane exactly. */
class FanOutLaneTest {

    @Test
    void everyFlagParsesToItsLaneAndTheCommittedFlagsAreUnchanged() {
        assertEquals(FanOutLane.BOUNDED, FanOutLane.parse("bounded"));
        assertEquals(FanOutLane.FIXED, FanOutLane.parse("fixed"));
        assertEquals(FanOutLane.UNBOUNDED, FanOutLane.parse("unbounded"));
        assertEquals(FanOutLane.BOUNDED_BATCHED, FanOutLane.parse("bounded-batched"));
        for (FanOutLane lane : FanOutLane.values()) {
            assertEquals(lane, FanOutLane.parse(lane.flag()));
        }
        assertThrows(IllegalArgumentException.class, () -> FanOutLane.parse("bounded_batched"));
        assertThrows(IllegalArgumentException.class, () -> FanOutLane.parse("bounded-all-fast"), "a label, not a lane");
    }

    @Test
    void theBatchedLaneHasTheBoundedLanesDemandAndCapAndIsNotADefault() {
        assertEquals(FanOutLane.BOUNDED.maxQueuedBytes(), FanOutLane.BOUNDED_BATCHED.maxQueuedBytes());
        assertEquals(
                FanOutLane.BOUNDED.demand().getClass(),
                FanOutLane.BOUNDED_BATCHED.demand().getClass());
        assertTrue(FanOutLane.BOUNDED_BATCHED.batched());
        assertFalse(FanOutLane.BOUNDED.batched());
        assertEquals(List.of(FanOutLane.BOUNDED, FanOutLane.FIXED, FanOutLane.UNBOUNDED), FanOutLane.defaults());
    }
}
