package io.sluice.spring.boot;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * The convention of the {@code sluice.transfer} observation: define a bean of this type to change
 * its name or key values ({@link DefaultSluiceTransferObservationConvention} has the defaults and
 * is meant to be extended).
 */
public interface SluiceTransferObservationConvention extends ObservationConvention<SluiceTransferContext> {

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof SluiceTransferContext;
    }
}
