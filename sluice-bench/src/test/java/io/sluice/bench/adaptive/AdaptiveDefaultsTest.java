package io.sluice.bench.adaptive;

import io.sluice.WriteOptions;
import io.sluice.demand.AdaptiveDemand;
import io.sluice.demand.Demand;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The adaptive defaults must satisfy AdaptiveDemand's own checks: before the fix, the defaults
 * (amount in [3, 1024], shift in [1, 3]) broke "maxShift < minAmount", so {@code Demand.adaptive()}
 * threw from AdaptiveDemand's static initialiser and, through it, {@code WriteOptions.defaults()}:
 * every write failed with ExceptionInInitializerError.
 */
class AdaptiveDefaultsTest {

    @Test
    void theDefaultsAreConsistent() {
        AdaptiveDemand defaults = assertDoesNotThrow(Demand::adaptive);
        assertTrue(defaults.maxShift() < defaults.minAmount(), defaults.toString());
        assertSame(defaults, WriteOptions.defaults().demand());
    }
}
