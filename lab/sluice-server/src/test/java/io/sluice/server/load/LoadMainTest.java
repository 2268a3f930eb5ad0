package io.sluice.server.load;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The harness's flags that need no load to check. */
class LoadMainTest {

    @Test
    void aDurationIsInSecondsUnderTwoMinutesElseInMinutes() {
        assertEquals("46 s", LoadMain.duration(46));
        assertEquals("119 s", LoadMain.duration(119));
        assertEquals("2 min", LoadMain.duration(120));
        assertEquals("74 min", LoadMain.duration(4 * 1116));
    }

    @Test
    void repeatsIsAWholeNumberFromOne() {
        assertEquals(1, LoadMain.repeats("1"));
        assertEquals(5, LoadMain.repeats(" 5"));
        for (String wrong : new String[] {"0", "-2", "five", "2.5", ""}) {
            assertEquals(
                    "--repeats must be a whole number from 1, was " + wrong,
                    assertThrows(IllegalArgumentException.class, () -> LoadMain.repeats(wrong))
                            .getMessage());
        }
    }

    @Test
    void flagsOverrideTheirDefaultsAndAnUnknownOrValuelessFlagIsRefused() {
        Map<String, String> defaults = Map.of("--series", "", "--repeats", "1");
        assertEquals(
                Map.of("--series", "s.csv", "--repeats", "1"), LoadMain.flags(List.of("--series", "s.csv"), defaults));
        assertEquals(
                "unknown flag --seris; known: [--repeats, --series]",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> LoadMain.flags(List.of("--seris", "s.csv"), defaults))
                        .getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> LoadMain.flags(List.of("--repeats"), defaults))
                .getMessage()
                .startsWith("no value for flag --repeats"));
    }
}
