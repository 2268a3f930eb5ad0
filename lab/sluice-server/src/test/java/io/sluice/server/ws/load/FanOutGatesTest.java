package io.sluice.server.ws.load;

import io.sluice.server.ws.FanOutLane;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The smoke gates decide from a run's figures alone. */
class FanOutGatesTest {

    private static LaneResult lane(
            FanOutLane lane,
            long fastMessages,
            long slowMessages,
            long gaps,
            long queuedBytes,
            long released,
            String death) {
        return new LaneResult(
                lane.flag(),
                20,
                2,
                3.0,
                fastMessages,
                slowMessages,
                gaps,
                0,
                "",
                1_000,
                5_000,
                9_000,
                80L << 20,
                180L << 20,
                6L << 20,
                queuedBytes,
                queuedBytes,
                1L << 20,
                1.5,
                released,
                0.05,
                "abc1234",
                "17.0.9",
                death,
                death.isEmpty() ? 20 : -1,
                1,
                ProcessCost.NOT_RECORDED);
    }

    private static List<FanOutGates.Gate> evaluate(List<LaneResult> results) {
        return FanOutGates.withinRepeat(results, List.of(), false);
    }

    private static long failed(List<LaneResult> results) {
        return evaluate(results).stream().filter(gate -> !gate.passed()).count();
    }

    @Test
    void aHealthyRunPassesEveryGate() {
        List<LaneResult> results = List.of(
                lane(FanOutLane.BOUNDED, 90_000, 30, 0, 100_000, 20, ""),
                lane(FanOutLane.FIXED, 90_000, 30, 0, 50_000, 20, ""),
                lane(FanOutLane.UNBOUNDED, 100_000, 30, 0, 3L << 20, 20, ""));
        assertEquals(0, failed(results), evaluate(results).toString());
    }

    @Test
    void aGapAStarvedFastClientALeakAndAQueueOverTheCapEachFail() {
        long cap = FanOutLane.BOUNDED_MAX_QUEUED_BYTES * 20;
        assertEquals(1, failed(List.of(lane(FanOutLane.BOUNDED, 90_000, 30, 1, 0, 20, ""))), "a gap");
        assertEquals(1, failed(List.of(lane(FanOutLane.BOUNDED, 100, 30, 0, 0, 20, ""))), "fast starved");
        assertEquals(1, failed(List.of(lane(FanOutLane.BOUNDED, 90_000, 30, 0, 0, 19, ""))), "a subscription kept");
        assertEquals(1, failed(List.of(lane(FanOutLane.FIXED, 90_000, 30, 0, cap + 1, 20, ""))), "over the cap");
    }

    @Test
    void theUnboundedControlPassesByGrowingOrDyingAndFailsWhenItStaysSmall() {
        assertEquals(0, failed(List.of(lane(FanOutLane.UNBOUNDED, 100_000, 30, 0, 3L << 20, 20, ""))));
        assertEquals(0, failed(List.of(lane(FanOutLane.UNBOUNDED, 100_000, 30, 0, -1, 0, "OutOfMemoryError"))));
        assertEquals(1, failed(List.of(lane(FanOutLane.UNBOUNDED, 100_000, 30, 0, 1_000, 20, ""))));
    }

    @Test
    void aBoundedLaneFarBelowTheControlsRateFails() {
        List<FanOutGates.Gate> gates = evaluate(List.of(
                lane(FanOutLane.BOUNDED, 10_000, 30, 0, 0, 20, ""),
                lane(FanOutLane.UNBOUNDED, 100_000, 30, 0, 3L << 20, 20, "")));
        assertTrue(
                gates.stream().anyMatch(gate -> !gate.passed() && gate.name().startsWith("messages/s")),
                gates.toString());
    }

    @Test
    void aClientTheServerDroppedFailsAndAClientErrorAfterTheServerDiedIsNoOrderFault() {
        LaneResult bounded = lane(FanOutLane.BOUNDED, 90_000, 30, 0, 100_000, 20, "");
        assertEquals(
                1, failed(List.of(FanOutFixtures.withLive(bounded, 18))), "2 of 20 subscribers ended during the load");
        assertEquals(0, failed(List.of(FanOutFixtures.withLive(bounded, -1))), "not recorded: no gate");
        LaneResult died = lane(FanOutLane.UNBOUNDED, 100_000, 30, 0, -1, 0, "OutOfMemoryError");
        LaneResult errored = new LaneResult(
                died.lane(),
                20,
                2,
                3.0,
                100_000,
                30,
                0,
                0,
                "ClosedChannelException",
                1_000,
                5_000,
                9_000,
                80L << 20,
                180L << 20,
                6L << 20,
                -1,
                -1,
                1L << 20,
                1.5,
                0,
                0.05,
                "abc1234",
                "17.0.9",
                "OutOfMemoryError",
                -1,
                1,
                ProcessCost.NOT_RECORDED);
        assertEquals(0, failed(List.of(errored)), evaluate(List.of(errored)).toString());
        assertTrue(FanOutGates.inOrder(errored).detail().endsWith("ClosedChannelException after the server died"));
    }

    @Test
    void theCsvHasOneColumnPerHeaderName() {
        LaneResult result = lane(FanOutLane.BOUNDED, 90_000, 30, 0, 100_000, 20, "");
        assertEquals(LaneResult.CSV_HEADER.split(",").length, result.csvRow().split(",").length);
    }
}
