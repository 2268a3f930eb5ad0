package io.sluice.examples;

import io.sluice.WriteOptions;
import io.sluice.demand.Demand;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

/**
 * CORE BUGS found while writing the examples, reported to the lead (sluice-core is not ours to
 * edit). Each test fails until core is fixed, then stays as a regression test.
 */
class KnownCoreBugsTest {

    /**
     * CORE BUG 1: {@code AdaptiveDemand.DEFAULTS} is built with minAmount=3 and maxShift=3, which
     * its own constructor rejects ("maxShift must be less than minAmount=3 (shift >= amount), was
     * 3"). The class initialiser throws, so {@code Demand.adaptive()}, {@code WriteOptions}'s static
     * initialiser, and with them every write of the library fail with ExceptionInInitializerError /
     * NoClassDefFoundError. Fixed on main in 30b889e (the check became maxShift <= minAmount); this
     * test then passes and stays as a regression test.
     */
    @Test
    void adaptiveDefaultsPassTheirOwnValidation_CORE_BUG_1() {
        assertDoesNotThrow(Demand::adaptive);
        assertDoesNotThrow(WriteOptions::defaults);
    }
}
