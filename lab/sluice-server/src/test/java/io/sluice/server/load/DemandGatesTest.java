package io.sluice.server.load;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Scenario C's full gates on fixture results: PASS/FAIL on one repeat, met/missed/inconclusive on three. */
class DemandGatesTest {

    private static final DemandScenario.Settings FULL = new DemandScenario.Settings(
            DemandScenario.Size.FULL,
            DemandScenario.DEFAULT_PRODUCER_MIB_PER_SECOND,
            DemandScenario.DEFAULT_CHUNK_BYTES,
            null,
            3);

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

    @Test
    void oneRepeatPrintsPassAndFailWithItsFigures() {
        int failed = gates().judge(List.of(paced(114.8, 120)), List.of(unpaced()));
        String text = text();
        assertEquals(0, failed, text);
        assertTrue(text.contains("PASS C adaptive >= 93 MiB/s aggregate: 114.8 MiB/s ("), text);
        assertTrue(
                text.contains("PASS C adaptive >= 0.95x best fixed: 114.8 vs 120.0 MiB/s (fixed(64,16)) = 0.96x"),
                text);
        assertTrue(text.endsWith("7 passed, 0 failed\n"), text);

        printed.reset();
        assertEquals(1, gates().judge(List.of(paced(110, 120)), List.of(unpaced())));
        assertTrue(
                text().contains("FAIL C adaptive >= 0.95x best fixed: 110.0 vs 120.0 MiB/s (fixed(64,16)) = 0.92x"),
                text());
    }

    @Test
    void repeatsJudgeEachGateByItsInterval() {
        // adaptive against the best fixed strategy: 0.96x on average, from 0.90x to 1.02x: the interval straddles 0.95
        int missed = gates().judge(
                        List.of(paced(108, 120), paced(115.2, 120), paced(122.4, 120)),
                        List.of(unpaced(), unpaced(), unpaced()));
        String text = text();
        assertEquals(0, missed, text);
        assertTrue(text.contains("MET C adaptive >= 93 MiB/s aggregate: adaptive MiB/s 115 ("), text);
        assertTrue(
                text.contains("INCONCLUSIVE C adaptive >= 0.95x best fixed: adaptive / fixed(64,16) MiB/s 0.96 ("),
                text);
        assertTrue(
                text.contains("MET C adaptive window shrinks after every fast->slow switch: share of switches it"
                        + " shrank after 1.00 (1.00..1.00) >= 1.00"),
                text);
        assertTrue(text.contains("MET C control: all-at-once queues >= 512 MiB or runs out of memory"), text);
        assertTrue(text.endsWith("6 met, 0 missed, 1 inconclusive (3 repeats, 95% intervals)\n"), text);
    }

    private DemandGates gates() {
        return new DemandGates(FULL, new PrintStream(printed, true, StandardCharsets.UTF_8));
    }

    /** Adaptive at {@code adaptiveMib}, fixed(64,16) the best fixed at {@code fixedMib}, all-at-once out of memory. */
    private static List<DemandScenario.Result> paced(double adaptiveMib, double fixedMib) {
        List<WindowTrace.Switch> shrinking = List.of(new WindowTrace.Switch(128, 33), new WindowTrace.Switch(128, 33));
        return List.of(
                result("adaptive", adaptiveMib, 3.5, shrinking, false),
                result("fixed(4,1)", fixedMib - 1, 0.3, List.of(), false),
                result("fixed(16,4)", fixedMib - 0.5, 0.9, List.of(), false),
                result("fixed(64,16)", fixedMib, 3.7, List.of(), false),
                result("all-at-once", 100, 0, List.of(), true));
    }

    private static List<DemandScenario.Result> unpaced() {
        return Stream.of("adaptive", "fixed(4,1)", "fixed(16,4)", "fixed(64,16)", "all-at-once")
                .map(name -> result(name, 117, name.equals("all-at-once") ? 1859 : 8, List.of(), false))
                .toList();
    }

    private static DemandScenario.Result result(
            String strategy, double mib, double queuedMib, List<WindowTrace.Switch> switches, boolean outOfMemory) {
        return new DemandScenario.Result(
                strategy,
                mib,
                17.8,
                (long) (queuedMib * DemandScenario.MIB),
                switches,
                17,
                128,
                new double[] {113, 1, 36, 1},
                outOfMemory);
    }

    private String text() {
        return printed.toString(StandardCharsets.UTF_8);
    }
}
