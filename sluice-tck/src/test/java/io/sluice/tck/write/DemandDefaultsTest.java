package io.sluice.tck.write;

import io.sluice.WriteOptions;
import io.sluice.demand.Demand;
import org.testng.annotations.Test;

import static org.testng.Assert.assertNotNull;

/**
 * Every writer test builds {@link WriteOptions}, whose defaults use {@link Demand#adaptive()}: if
 * the adaptive defaults are inconsistent, the class fails to initialise and every write fails.
 * This names that cause in one test instead of a thousand {@code NoClassDefFoundError}s.
 */
public class DemandDefaultsTest {

    @Test
    public void adaptiveDefaultsAndWriteOptionsDefaultsCanBeBuilt() {
        assertNotNull(Demand.adaptive(), "Demand.adaptive()");
        assertNotNull(WriteOptions.defaults(), "WriteOptions.defaults()");
    }
}
