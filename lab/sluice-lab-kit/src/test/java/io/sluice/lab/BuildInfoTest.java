package io.sluice.lab;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BuildInfoTest {

    @Test
    void aJarFromACommittedTreeMayRun() {
        assertDoesNotThrow(() -> BuildInfo.requireCommitted("2229dbe", false));
    }

    @Test
    void aJarFromADirtyTreeIsRefusedNamingItsCommitAndTheWayOut() {
        IllegalStateException refused =
                assertThrows(IllegalStateException.class, () -> BuildInfo.requireCommitted("2229dbe-dirty", false));

        assertTrue(refused.getMessage().contains("uncommitted changes (2229dbe-dirty)"), refused.getMessage());
        assertTrue(refused.getMessage().contains("--allow-dirty"), refused.getMessage());
    }

    @Test
    void aJarBuiltOutsideGitIsRefused() {
        IllegalStateException refused =
                assertThrows(IllegalStateException.class, () -> BuildInfo.requireCommitted("unknown", false));

        assertTrue(refused.getMessage().contains("outside git"), refused.getMessage());
    }

    @Test
    void allowDirtyLetsATrialRunGoOn() {
        assertDoesNotThrow(() -> BuildInfo.requireCommitted("2229dbe-dirty", true));
        assertDoesNotThrow(() -> BuildInfo.requireCommitted("unknown", true));
    }

    @Test
    void theFlagIsTakenOutOfTheHarnessesArguments() {
        assertArrayEquals(
                new String[] {"--sizes", "1MiB"},
                BuildInfo.requireCommitted(new String[] {"--sizes", "--allow-dirty", "1MiB"}));
    }
}
