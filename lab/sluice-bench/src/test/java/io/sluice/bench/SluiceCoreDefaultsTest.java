package io.sluice.bench;

import io.sluice.WriteOptions;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

/**
 * The benchmark's first contact with core: every sluice row depends on the default write options.
 * It failed while {@code AdaptiveDemand.DEFAULTS} violated its own {@code maxShift < minAmount}
 * check (minAmount 3, maxShift 3), which made {@code WriteOptions}' class initialiser throw and
 * every sluice write fail; it stays as a guard.
 */
class SluiceCoreDefaultsTest {

    @Test
    void defaultWriteOptionsInitialise() {
        assertDoesNotThrow(() -> WriteOptions.defaults());
    }
}
