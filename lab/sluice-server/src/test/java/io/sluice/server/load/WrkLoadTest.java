package io.sluice.server.load;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WrkLoadTest {

    private static final long BODY = 16 * 1024;

    @Test
    void readsCountsAndPercentilesFromTheSummaryLine() {
        // requests bytes duration(us) connect read write status timeout p50 p99 p99.9 (us)
        String output = "Running 20s test @ http://127.0.0.1:1/files/small.bin\n"
                + "SLUICE-WRK 1000 16500000 20000000 0 0 0 0 2 101500 140250 210000\n";
        Traffic traffic = WrkLoad.parse(output, BODY);
        assertEquals(1000, traffic.ok());
        assertEquals(1000 * BODY, traffic.bodyBytes());
        assertEquals(0, traffic.errors());
        assertEquals(2, traffic.timeouts());
        assertEquals(101.5, traffic.p50Millis(), 1e-9);
        assertEquals(140.25, traffic.p99Millis(), 1e-9);
        assertEquals(210.0, traffic.p999Millis(), 1e-9);
    }

    @Test
    void countsSocketErrorsStatusErrorsAndShortBodiesAsErrors() {
        // 1000 answers, 10 of them not 2xx; bytes hold only 900 bodies: 90 short ones more
        String output = "SLUICE-WRK 1000 14745600 20000000 1 2 3 10 0 1000 2000 3000\n";
        Traffic traffic = WrkLoad.parse(output, BODY);
        assertEquals(900, traffic.ok());
        assertEquals(1 + 2 + 3 + 10 + 90, traffic.errors());
    }

    @Test
    void aRunWithoutAnswersHasNoPercentiles() {
        Traffic traffic = WrkLoad.parse("SLUICE-WRK 0 0 20000000 512 0 0 0 0 0 0 0\n", BODY);
        assertEquals(0, traffic.ok());
        assertEquals(512, traffic.errors());
        assertTrue(Double.isNaN(traffic.p99Millis()));
    }

    @Test
    void outputWithoutTheSummaryLineIsRefusedWithWhatWrkSaid() {
        IllegalArgumentException refused = assertThrows(
                IllegalArgumentException.class,
                () -> WrkLoad.parse("unable to connect to 127.0.0.1:1 Connection refused\n", BODY));
        assertTrue(refused.getMessage().contains("Connection refused"), refused.getMessage());
    }
}
