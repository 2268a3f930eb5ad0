package io.sluice.server.load;

import io.sluice.server.Lane;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The smoke run in CI: scenarios A1, A2 and B at smoke scale (a fresh server JVM per lane, about
 * 90 s on 2 cores), every gate printed as PASS/FAIL, and the build fails when one fails. Lane B
 * joins on JDK 21+; on JDK 17 the output says it was left out and why. The thresholds are the
 * issue's gates widened for seconds of load on a shared machine (docs/SERVER.md lists them).
 * {@code -Dsluice.smoke.skip=true} turns it off for quick local builds; it is never skipped by
 * default.
 */
class SmokeGatesTest {

    @Test
    @Timeout(300)
    void smokeScenariosPassTheirGates() throws Exception {
        if (Boolean.getBoolean("sluice.smoke.skip")) {
            System.out.println("smoke gates skipped: -Dsluice.smoke.skip=true was given");
            return;
        }
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(captured, true, StandardCharsets.UTF_8);
        int failed = LoadMain.run(Scale.SMOKE, List.of("A1", "A2", "B"),
                List.of(Lane.A, Lane.B, Lane.C, Lane.C_UNBOUNDED), null, new TeeStream(out, System.out));
        String report = captured.toString(StandardCharsets.UTF_8);
        assertTrue(report.contains(" passed, " + failed + " failed"), report);
        assertEquals(0, failed, "failed smoke gates:\n" + report);
    }

    /** Prints to the console as it goes and keeps a copy for the assertion message. */
    private static final class TeeStream extends PrintStream {
        private final PrintStream copy;

        TeeStream(PrintStream copy, PrintStream console) {
            super(console, true, StandardCharsets.UTF_8);
            this.copy = copy;
        }

        @Override
        public void println(String line) {
            super.println(line);
            copy.println(line);
        }
    }
}
