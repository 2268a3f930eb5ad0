package io.sluice.server.ws.load;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fan-out smoke run in CI: {@link FanOutRun#smoke()} (a fresh server JVM per lane, this JVM
 * as the load client, about 20 seconds on 2 cores), every gate printed as PASS/FAIL, and the
 * build fails when one fails; every lane has its server and client cost recorded. {@code -Dsluice.smoke.skip=true} turns it off for quick local
 * builds; it is never skipped by default.
 */
class FanOutSmokeTest {

    @Test
    @Timeout(180)
    void smokeRunPassesItsGates() throws Exception {
        if (Boolean.getBoolean("sluice.smoke.skip")) {
            System.out.println("fan-out smoke skipped: -Dsluice.smoke.skip=true was given");
            return;
        }
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        Path results = Path.of("target", "smoke-websocket");
        int failed = FanOutLoadMain.run(
                FanOutRun.smoke().withFlags(new String[] {"--results", results.toString()}),
                new PrintStream(captured, true, StandardCharsets.UTF_8));
        String report = captured.toString(StandardCharsets.UTF_8);
        System.out.print(report);
        assertTrue(report.contains(" passed, " + failed + " failed"), report);
        List<String> csv = Files.readAllLines(results.resolve("websocket.csv"));
        assertEquals(LaneResult.CSV_HEADER, csv.get(0));
        assertEquals(4, csv.size(), "a header and one row per lane:\n" + csv);
        for (LaneResult lane : FanOutReport.read(results).results()) {
            ProcessCost cost = lane.cost();
            assertTrue(
                    cost.serverUserSeconds() > 0
                            && cost.serverSystemSeconds() > 0
                            && cost.serverWriteSyscalls() > 0
                            && cost.clientCpuSeconds() > 0,
                    "the server's and the clients' cost was read: " + lane);
        }
        assertEquals(0, failed, "failed fan-out smoke gates:\n" + report);
    }
}
