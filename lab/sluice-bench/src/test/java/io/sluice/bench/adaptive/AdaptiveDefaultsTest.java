package io.sluice.bench.adaptive;

import io.sluice.WriteOptions;
import io.sluice.demand.AdaptiveDemand;
import io.sluice.demand.Demand;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The adaptive defaults must satisfy AdaptiveDemand's own checks, such as "maxShift < minAmount":
 * defaults that break one make {@code Demand.adaptive()} throw from AdaptiveDemand's static
 * initialiser and, through it, {@code WriteOptions.defaults()}, so every write would fail with
 * ExceptionInInitializerError.
 */
class AdaptiveDefaultsTest {

    @Test
    void theDefaultsAreConsistent() {
        AdaptiveDemand defaults = assertDoesNotThrow(Demand::adaptive);
        assertTrue(defaults.maxShift() < defaults.minAmount(), defaults.toString());
        assertSame(defaults, WriteOptions.defaults().demand());
    }
}
