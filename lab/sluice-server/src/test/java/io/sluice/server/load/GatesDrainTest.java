package io.sluice.server.load;

import io.sluice.server.Lane;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The "RSS flat at the end" gate of scenario B, on rows with chosen drain figures. */
class GatesDrainTest {

    @Test
    void passesWhenRssStaysFlatOverTheDrainAndTheLiveSetReturnsToIdle() {
        String report = evaluate(new Drain(186, 187, 187, 5, 11, ""));
        assertTrue(report.contains("PASS B lane C RSS flat at the end"), report);
    }

    @Test
    void failsWhenRssKeepsRisingAfterTheLoadStopped() {
        String report = evaluate(new Drain(186, 186 + 17, 186 + 17, 5, 6, ""));
        assertTrue(report.contains("FAIL B lane C RSS flat at the end"), report);
    }

    @Test
    void failsWhenTheHeapStillHoldsWhatTheConnectionsUsed() {
        String report = evaluate(new Drain(186, 186, 186, 5, 5 + 33, ""));
        assertTrue(report.contains("FAIL B lane C RSS flat at the end"), report);
    }

    @Test
    void checksRssAloneAndSaysSoWhenTheLiveSetCouldNotBeMeasured() {
        String report = evaluate(new Drain(186, 190, 190, Double.NaN, Double.NaN, "no /x/jcmd (a JRE without jcmd)"));
        assertTrue(report.contains("PASS B lane C RSS flat at the end"), report);
        assertTrue(report.contains("live set not measured (no /x/jcmd (a JRE without jcmd)), RSS only"), report);
    }

    @Test
    void failsWhenNoDrainWasMeasured() {
        String report = evaluate(new Drain(186, Double.NaN, Double.NaN, 5, Double.NaN, "server not running"));
        assertTrue(report.contains("FAIL B lane C RSS flat at the end"), report);
        assertTrue(report.contains("server not running"), report);
    }

    /** Full-scale gates over one lane-C B step with this drain. */
    private static String evaluate(Drain drain) {
        List<Row> rows = new ArrayList<>();
        rows.add(RowFixtures.fastGet(Lane.C, 7, 151, 191, drain, ""));
        rows.add(RowFixtures.put(Lane.C, drain));
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        new Gates(List.of(rows), Scale.FULL, new PrintStream(printed, true, StandardCharsets.UTF_8)).evaluateAll();
        return printed.toString(StandardCharsets.UTF_8);
    }
}
