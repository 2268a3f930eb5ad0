package io.sluice.bench;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The command line's options, which BenchMain and the adaptive ScenarioMain both read. */
class BenchMainTest {

    @Test
    void readsNameValuePairsAndFlags() {
        assertEquals(Map.of("out", "lab/results/x", "allow-dirty", "true", "charts", "out"),
                BenchMain.options(new String[] {"--out", "lab/results/x", "--allow-dirty", "--charts", "out"}));
    }

    @Test
    void rejectsAStrayWordAndAnOptionWithoutItsValue() {
        assertThrows(IllegalArgumentException.class, () -> BenchMain.options(new String[] {"--scale", "1", "oops"}));
        assertThrows(IllegalArgumentException.class, () -> BenchMain.options(new String[] {"--scale"}));
    }
}
