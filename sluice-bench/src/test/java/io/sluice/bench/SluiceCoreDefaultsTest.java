package io.sluice.bench;

import io.sluice.WriteOptions;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

/**
 * The benchmark's first contact with core: every sluice row depends on the default write options.
 * Fails while {@code AdaptiveDemand.DEFAULTS} violates its own {@code maxShift < minAmount} check
 * (minAmount 3, maxShift 3), which makes {@code WriteOptions}' class initialiser throw.
 */
class SluiceCoreDefaultsTest {

    @Test
    void defaultWriteOptionsInitialise() {
        assertDoesNotThrow(() -> WriteOptions.defaults());
    }
}
