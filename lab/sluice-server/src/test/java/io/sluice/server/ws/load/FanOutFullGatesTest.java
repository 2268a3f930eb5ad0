package io.sluice.server.ws.load;

import io.sluice.lab.Estimate;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import static io.sluice.server.ws.load.FanOutFixtures.IDLE_RSS;
import static io.sluice.server.ws.load.FanOutFixtures.MIB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The full gates decide from a run's rows and time series alone; the unbounded lane's degradation is found in its series. */
class FanOutFullGatesTest {

    private static List<String> failed(List<LaneResult> results, List<LaneSample> samples) {
        return FanOutGates.forRun(results, samples).stream()
                .filter(gate -> !gate.passed())
                .map(FanOutGates.Gate::line)
                .toList();
    }

    /** The fixture's results with {@code lane}'s row changed. */
    private static List<LaneResult> with(String lane, UnaryOperator<LaneResult> change) {
        return FanOutFixtures.results().stream()
                .map(result -> result.lane().equals(lane) ? change.apply(result) : result)
                .toList();
    }

    /** The fixture's samples with {@code lane}'s series replaced. */
    private static List<LaneSample> withSeries(String lane, List<LaneSample> series) {
        List<LaneSample> samples = new ArrayList<>(FanOutFixtures.samples().stream()
                .filter(sample -> !sample.lane().equals(lane))
                .toList());
        samples.addAll(series);
        return samples;
    }

    @Test
    void aRunWithTheAllFastReferenceIsJudgedByTheFullGatesAndTheFixturePassesThemAll() {
        List<FanOutGates.Gate> gates = FanOutGates.forRun(FanOutFixtures.results(), FanOutFixtures.samples());
        assertTrue(gates.stream().anyMatch(gate -> gate.name().contains("2x the all-fast run's")), gates.toString());
        assertEquals(List.of(), failed(FanOutFixtures.results(), FanOutFixtures.samples()));
        assertTrue(
                gates.stream()
                        .anyMatch(gate -> gate.line()
                                .equals("PASS bounded: messages/s >= 0.9x the unbounded"
                                        + " lane's before it degrades (950000 vs 888372 from 5.38 s to 10.75 s; the unbounded lane delivery fell"
                                        + " to 400000 msg/s, below 0.5x its best 1000000, at 10.75 s; 1 sample)")),
                gates.toString());
    }

    @Test
    void theUnboundedLaneDegradesAtItsFirstSampleOverIdlePlus256MibOrAtHalfItsBestRate() {
        Degradation halved = Degradation.of(FanOutFixtures.unbounded(), IDLE_RSS);
        assertEquals(5.375, halved.from(), 1e-9, "a window under 20 s leaves out its first half as warm-up");
        assertEquals(10.0, new Degradation(61.25, "").from(), 1e-9, "a longer one its first 10 s");
        assertEquals((10_150_000 - 5_375_000) / 5.375, halved.rate(FanOutFixtures.unbounded()), 1e-6);
        assertEquals(10.75, Degradation.of(FanOutFixtures.unbounded(), IDLE_RSS).seconds(), 1e-9, "the rate halves");
        assertEquals(
                13.0,
                Degradation.of(
                                FanOutFixtures.unbounded().stream()
                                        .map(sample -> new LaneSample(
                                                sample.lane(),
                                                sample.seconds(),
                                                (long) (1_000_000 * sample.seconds()),
                                                0,
                                                sample.rssBytes(),
                                                0,
                                                0,
                                                0,
                                                1))
                                        .toList(),
                                IDLE_RSS)
                        .seconds(),
                1e-9,
                "RSS passes idle + 256 MiB (20 MiB/s) after 12.8 s");
        assertEquals(
                20.0,
                Degradation.of(FanOutFixtures.steady("u", 1_000_000, 20, 0), IDLE_RSS)
                        .seconds(),
                1e-9,
                "never: the whole run");
        assertEquals(2_500_000, Degradation.messagesAt(FanOutFixtures.steady("u", 1_000_000, 20, 0), 2.5), 1e-6);
        assertEquals(
                1_125_000,
                Degradation.messagesAt(FanOutFixtures.steady("u", 1_000_000, 20, 0), 1.125),
                1e-6,
                "interpolated between samples");
    }

    @Test
    void eachFullGateFailsOnItsOwnFigure() {
        List<LaneSample> samples = FanOutFixtures.samples();
        assertEquals(
                1,
                failed(
                                with(
                                        "bounded",
                                        result -> FanOutFixtures.result(
                                                "bounded", 100, 950_000, 20, 8_000, IDLE_RSS + 257 * MIB, 5 * MIB, "")),
                                samples)
                        .size(),
                "RSS over idle + 256 MiB");
        assertEquals(
                1,
                failed(
                                with(
                                        "fixed",
                                        result -> FanOutFixtures.result(
                                                "fixed", 100, 920_000, 20, 10_001, IDLE_RSS, 5 * MIB, "")),
                                samples)
                        .size(),
                "p99 over 2x the all-fast run's");
        assertEquals(
                1,
                failed(
                                FanOutFixtures.results(),
                                withSeries("fixed", FanOutFixtures.steady("fixed", 790_000, 20, 150 * MIB)))
                        .size(),
                "under 0.9x the control's 888,372 msg/s from 5.375 s (warm-up: half the window) to 10.75 s");
        List<LaneSample> growingKernel = FanOutFixtures.steady("bounded", 950_000, 20, 150 * MIB).stream()
                .map(sample -> new LaneSample(
                        sample.lane(),
                        sample.seconds(),
                        sample.messages(),
                        sample.fastMessages(),
                        sample.rssBytes(),
                        sample.heapUsedBytes(),
                        sample.queuedBytes(),
                        (long) (10 * MIB * sample.seconds()),
                        1))
                .toList();
        assertEquals(
                1,
                failed(FanOutFixtures.results(), withSeries("bounded", growingKernel))
                        .size(),
                "kernel send queues still growing");
        assertEquals(
                1,
                failed(
                                with(
                                        "bounded",
                                        result -> FanOutFixtures.result(
                                                "bounded", 100, 950_000, 20, 8_000, IDLE_RSS, 63 * MIB, "")),
                                samples)
                        .size(),
                "held bytes over the byte cap times the clients");
    }

    @Test
    void theControlPassesOnlyByRunningOutOfMemoryOrStillGrowingAtTheEnd() {
        List<LaneSample> plateau = FanOutFixtures.steady("unbounded", 1_000_000, 15, 200 * MIB);
        List<LaneResult> alive = with(
                "unbounded",
                result -> FanOutFixtures.result(
                        "unbounded", 100, 1_000_000, 15, 30_000, IDLE_RSS + 200 * MIB, 5 * MIB, ""));
        assertEquals(
                1,
                failed(alive, withSeries("unbounded", plateau)).stream()
                        .filter(line -> line.contains("grows without bound"))
                        .count(),
                "a control that stays flat fails");
        List<LaneResult> growing = with(
                "unbounded",
                result -> FanOutFixtures.result(
                        "unbounded", 100, 700_000, 15, 30_000, IDLE_RSS + 300 * MIB, 300 * MIB, ""));
        assertTrue(
                failed(growing, FanOutFixtures.samples()).stream()
                        .noneMatch(line -> line.contains("grows without bound")),
                "held bytes that still rise at the end pass without a death");
        List<LaneResult> dropped = with(
                "unbounded",
                result -> FanOutFixtures.withLive(
                        FanOutFixtures.result(
                                "unbounded", 100, 700_000, 15, 30_000, IDLE_RSS + 300 * MIB, 300 * MIB, ""),
                        900));
        List<String> droppedFailures = failed(dropped, FanOutFixtures.samples());
        assertTrue(
                droppedFailures.stream()
                        .anyMatch(line -> line.contains("grows without bound")
                                && line.contains("900 of 1000 clients connected at the end")),
                droppedFailures.toString());
        List<LaneResult> unrecorded = with(
                "unbounded",
                result -> FanOutFixtures.withLive(
                        FanOutFixtures.result(
                                "unbounded", 100, 700_000, 15, 30_000, IDLE_RSS + 300 * MIB, 300 * MIB, ""),
                        -1));
        assertTrue(
                failed(unrecorded, FanOutFixtures.samples()).stream()
                        .anyMatch(line -> line.contains("grows without" + " bound") && line.contains("not recorded")),
                "a row without the count cannot show growth");
    }

    @Test
    void aBoundedLaneWhoseServerDroppedClientsFails() {
        List<String> failures =
                failed(with("fixed", result -> FanOutFixtures.withLive(result, 900)), FanOutFixtures.samples());
        assertEquals(
                List.of("FAIL fixed: every client still connected at the end of the load (900 of 1000 subscribers"
                        + " live)"),
                failures);
    }

    /** The fixture run twice: the second repeat's fixed lane {@code fixedRate} msg/s, its p99 {@code fixedP99}. */
    private static List<FanOutGates.Gate> twoRepeats(double fixedRate, long fixedP99) {
        List<LaneResult> results = new ArrayList<>(FanOutFixtures.results());
        FanOutFixtures.results()
                .forEach(result -> results.add(FanOutFixtures.inRepeat(
                        result.lane().equals("fixed")
                                ? FanOutFixtures.result(
                                        "fixed", 100, fixedRate, 20, fixedP99, IDLE_RSS + 150 * MIB, 5 * MIB, "")
                                : result,
                        2)));
        List<LaneSample> samples = new ArrayList<>(FanOutFixtures.samples());
        FanOutFixtures.samples().stream()
                .filter(sample -> !sample.lane().equals("fixed"))
                .forEach(sample -> samples.add(FanOutFixtures.inRepeat(sample, 2)));
        FanOutFixtures.steady("fixed", fixedRate, 20, 150 * MIB)
                .forEach(sample -> samples.add(FanOutFixtures.inRepeat(sample, 2)));
        return FanOutGates.forRun(results, samples);
    }

    private static FanOutGates.Gate gate(List<FanOutGates.Gate> gates, String lane, String nameStart) {
        return gates.stream()
                .filter(gate -> gate.lane().equals(lane) && gate.name().startsWith(nameStart))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void withRepeatsTheRatiosAreEstimatesOverThemAndTheRestMustHoldInEach() {
        List<FanOutGates.Gate> same = twoRepeats(920_000, 9_000);
        assertEquals(22, same.size(), "one line per lane and gate, not per repeat: " + same);
        FanOutGates.Gate throughput = gate(same, "fixed", "messages/s");
        assertEquals(Estimate.Verdict.MET, throughput.verdict(), throughput.line());
        assertTrue(
                throughput.detail().startsWith("ratio 1.04 (1.04-1.04) over 2 repeats; repeat 1: 920000 vs 888372"),
                throughput.detail());
        FanOutGates.Gate straddling = gate(twoRepeats(700_000, 9_000), "fixed", "messages/s");
        assertEquals(
                Estimate.Verdict.INCONCLUSIVE,
                straddling.verdict(),
                "1.04 and 0.79: the interval holds 0.9: " + straddling.line());
        assertTrue(straddling.line().startsWith("INCONCLUSIVE fixed: messages/s"), straddling.line());
        assertEquals(
                Estimate.Verdict.INCONCLUSIVE,
                gate(twoRepeats(920_000, 12_000), "fixed", "fast clients' p99").verdict(),
                "1.8x and 2.4x the all-fast run's: the interval holds 2x");
        FanOutGates.Gate rss = gate(twoRepeats(920_000, 9_000), "fixed", "RSS");
        assertTrue(
                rss.passed()
                        && rss.detail().startsWith("repeat 1: peak 250.0 MiB")
                        && rss.detail().contains("; repeat 2: "),
                rss.line());
        assertEquals(
                "gates: 21 passed, 0 failed, 1 inconclusive or not measured",
                FanOutGates.count(twoRepeats(700_000, 9_000)));
    }
}
