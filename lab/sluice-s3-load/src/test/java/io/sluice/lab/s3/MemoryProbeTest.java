package io.sluice.lab.s3;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the probe reads: the checked live heap only with checks, and then what is held, not what was dropped. */
class MemoryProbeTest {

    private static final int MIB = 1024 * 1024;

    @Test
    void aProbeWithChecksReadsTheHeapHeldAfterAFullCollection() throws Exception {
        long idle = MemoryProbe.idleHeapBytes();
        byte[][] held = new byte[32][];
        MemoryProbe probe = MemoryProbe.start(10);
        try {
            for (int i = 0; i < held.length; i++) {
                held[i] = new byte[256 * 1024]; // 8 MiB held
                for (int j = 0; j < 16; j++) {
                    byte[] dropped = new byte[256 * 1024]; // 128 MiB dropped
                    dropped[j] = 1;
                }
            }
            Thread.sleep(200);
        } finally {
            probe.close();
        }
        long checked = probe.peaks().checkedLiveHeapBytes() - idle;
        assertTrue(held[31].length > 0);
        assertTrue(checked >= 8 * MIB, "what is held counts: " + checked / MIB + " MiB");
        assertTrue(checked < 64 * MIB, "what was dropped does not: " + checked / MIB + " MiB");
    }

    @Test
    void aProbeWithoutChecksForcesNoCollection() throws Exception {
        MemoryProbe probe = MemoryProbe.start(0);
        Thread.sleep(50);
        probe.close();
        assertEquals(-1, probe.peaks().checkedLiveHeapBytes());
    }
}
