package io.sluice.server.load;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Scenario C in CI: {@link DemandScenario} at smoke scale, in process (8 x 32 MiB per strategy and
 * case, two interleaved rounds, about 40-60 s on 2 cores), every gate printed as PASS/FAIL with a closing
 * {@code N passed, N failed} line, and the build fails when a gate fails. The smoke thresholds are
 * ratios with headroom for a loaded machine ({@link DemandGates} and
 * {@code lab/results/2026-11-22-scenario-c/README.md} list them next to the full-scale gates).
 * {@code -Dsluice.smoke.skip=true} turns it off for quick local builds; it is never skipped by
 * default.
 */
class DemandScenarioSmokeTest {

    @Test
    @Timeout(180)
    void scenarioCPassesItsSmokeGates() throws Exception {
        if (Boolean.getBoolean("sluice.smoke.skip")) {
            System.out.println("scenario C smoke gates skipped: -Dsluice.smoke.skip=true was given");
            return;
        }
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream copy = new PrintStream(captured, true, StandardCharsets.UTF_8);
        PrintStream both = new PrintStream(new TeeOutput(copy, System.out), true, StandardCharsets.UTF_8);
        DemandScenario.Settings settings = new DemandScenario.Settings(
                DemandScenario.Size.SMOKE,
                DemandScenario.DEFAULT_PRODUCER_MIB_PER_SECOND,
                DemandScenario.DEFAULT_CHUNK_BYTES,
                null,
                1);
        int failed = DemandScenario.run(settings, both);
        both.flush();
        String report = captured.toString(StandardCharsets.UTF_8);
        assertTrue(report.contains(" passed, " + failed + " failed"), report);
        assertEquals(0, failed, "failed scenario C smoke gates:\n" + report);
    }

    /** Writes every byte to both streams: the console as it goes, and a copy for the assertion message. */
    private static final class TeeOutput extends java.io.OutputStream {
        private final PrintStream copy;
        private final PrintStream console;

        TeeOutput(PrintStream copy, PrintStream console) {
            this.copy = copy;
            this.console = console;
        }

        @Override
        public void write(int oneByte) {
            copy.write(oneByte);
            console.write(oneByte);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) {
            copy.write(bytes, offset, length);
            console.write(bytes, offset, length);
        }

        @Override
        public void flush() {
            copy.flush();
            console.flush();
        }
    }
}
