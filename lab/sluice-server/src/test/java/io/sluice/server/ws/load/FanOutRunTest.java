package io.sluice.server.ws.load;

import io.sluice.server.ws.FanOutLane;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The published run is the default, fits its budget, and every flag overrides one setting. */
class FanOutRunTest {

    @Test
    void theDefaultIsThePublishedRunAndItFitsItsBudget() {
        FanOutRun full = FanOutRun.defaults();
        assertEquals(
                List.of(FanOutLane.BOUNDED, FanOutLane.FIXED, FanOutLane.UNBOUNDED),
                full.lanes(),
                "the published lanes");
        assertEquals(1000, full.clients());
        assertEquals(100, FanOutLoad.slowClients(full.clients(), full.slowShare()));
        assertEquals(Duration.ofSeconds(120), full.loadTime());
        assertEquals("256m", full.serverHeap());
        assertEquals(360_448, full.sendBufferBytes(), "352 KiB, doubled by Linux to 704 KiB of send queue");
        assertTrue(full.allFastReference());
        assertEquals(4, full.serverRuns());
        assertEquals(Duration.ofSeconds(4 * (120 + 90)), full.expectedLongest());
        assertTrue(
                full.expectedLongest().compareTo(full.budget()) <= 0, "even with the worst overhead it ends in 15 min");
        assertFalse(FanOutRun.smoke().allFastReference(), "the smoke run is judged by the smoke gates");
    }

    @Test
    void flagsOverrideOneSettingEach() {
        FanOutRun run = FanOutRun.defaults().withFlags(new String[] {
            "--clients",
            "200",
            "--seconds",
            "10",
            "--all-fast",
            "false",
            "--budget-seconds",
            "0",
            "--lanes",
            "bounded,unbounded",
            "--results",
            "/tmp/x"
        });
        assertEquals(200, run.clients());
        assertEquals(Duration.ofSeconds(10), run.loadTime());
        assertFalse(run.allFastReference());
        assertTrue(run.budget().isZero());
        assertEquals(List.of(FanOutLane.BOUNDED, FanOutLane.UNBOUNDED), run.lanes());
        assertEquals(Path.of("/tmp/x"), run.results());
        assertEquals(360_448, run.sendBufferBytes(), "unchanged");
        assertThrows(IllegalArgumentException.class, () -> run.withFlags(new String[] {"--clients", "0"}));
        assertThrows(IllegalArgumentException.class, () -> run.withFlags(new String[] {"--bogus", "1"}));
    }

    @Test
    void repeatsRunTheWholeSequenceAgainAndTheDefaultBudgetGrowsWithThem() {
        assertEquals(1, FanOutRun.defaults().repeats());
        FanOutRun three = FanOutRun.defaults().withFlags(new String[] {"--repeats", "3"});
        assertEquals(12, three.serverRuns(), "3 x (3 lanes + the all-fast reference)");
        assertEquals(Duration.ofMinutes(45), three.budget(), "15 minutes per repeat");
        assertTrue(three.expectedLongest().compareTo(three.budget()) <= 0);
        assertEquals(
                Duration.ofMinutes(20),
                FanOutRun.defaults()
                        .withFlags(new String[] {"--budget-seconds", "1200", "--repeats", "3"})
                        .budget(),
                "a budget given is kept");
        assertThrows(
                IllegalArgumentException.class, () -> FanOutRun.defaults().withFlags(new String[] {"--repeats", "0"}));
    }
}
