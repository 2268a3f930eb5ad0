package io.sluice.bench.phases;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The phases are timed only in a JVM whose heap does not grow under the timed operations. */
class PhaseTimesTest {

    @Test
    void aHeapIsFixedWhenItsInitialAndMaximumSizesAreGivenEqual() {
        assertTrue(PhaseTimes.heapFixed(List.of("-Xms2g", "-Xmx2g")));
        assertTrue(PhaseTimes.heapFixed(List.of("-Xmx512m", "-Dx=y", "-Xms512M")));
        assertTrue(PhaseTimes.heapFixed(List.of("-Xms1g", "-Xmx1g", "-Xms2g", "-Xmx2g")), "the last of each counts");
    }

    @Test
    void aHeapTheJvmSizesAsItGoesIsNotFixed() {
        assertFalse(PhaseTimes.heapFixed(List.of()), "the JVM's defaults: G1 sizes the heap as it goes");
        assertFalse(PhaseTimes.heapFixed(List.of("-Xmx2g")));
        assertFalse(PhaseTimes.heapFixed(List.of("-Xms2g")));
        assertFalse(PhaseTimes.heapFixed(List.of("-Xms512m", "-Xmx2g")));
    }
}
