package io.sluice.server.load;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The per-GiB arithmetic behind the table's {@code heap alloc MiB/GiB} column. */
class ScenariosTest {

    private static final long MIB = 1024 * 1024;
    private static final long GIB = 1024 * MIB;

    @Test
    void heapAllocatedPerGiBIsTheCounterDifferenceInMiBOverTheGiBMoved() {
        long before = 7 * GIB + 123;
        assertEquals(256.0, Scenarios.heapAllocatedMiBPerGiB(before, before + 512 * MIB, 2 * GIB), 1e-9);
        assertEquals(3072.0, Scenarios.heapAllocatedMiBPerGiB(before, before + 48 * MIB, 16 * MIB), 1e-9);
        assertEquals(0.0, Scenarios.heapAllocatedMiBPerGiB(before, before, GIB), 1e-9);
    }

    @Test
    void heapAllocatedPerGiBIsNotMeasuredWithoutBothReadingsOrWhenTheCounterFell() {
        assertTrue(Double.isNaN(Scenarios.heapAllocatedMiBPerGiB(-1, 5 * GIB, GIB)), "no reading before");
        assertTrue(Double.isNaN(Scenarios.heapAllocatedMiBPerGiB(5 * GIB, -1, GIB)), "no reading after");
        assertTrue(
                Double.isNaN(Scenarios.heapAllocatedMiBPerGiB(5 * GIB, 4 * GIB, GIB)),
                "fell: JDK 17's live-thread sum lost an ended thread");
        assertEquals("n/a", Row.number(Scenarios.heapAllocatedMiBPerGiB(GIB, 2 * GIB, 0), 0), "nothing moved");
    }
}
