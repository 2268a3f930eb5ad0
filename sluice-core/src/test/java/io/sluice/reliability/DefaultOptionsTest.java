package io.sluice.reliability;

import io.sluice.WriteOptions;
import io.sluice.demand.Demand;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Every reliability test starts from the defaults; if they cannot be built, no write can run at
 * all (the class initialiser of {@link WriteOptions} fails with {@code ExceptionInInitializerError}).
 */
class DefaultOptionsTest {

    @Test
    void theDefaultAdaptiveStrategyCanBeBuilt() {
        assertNotNull(assertDoesNotThrow(
                Demand::adaptive, "AdaptiveDemand.DEFAULTS violates its own rule maxShift < minAmount"));
    }

    @Test
    void theDefaultWriteOptionsCanBeBuilt() {
        assertNotNull(assertDoesNotThrow(WriteOptions::defaults));
    }
}
