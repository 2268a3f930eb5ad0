package io.sluice.spring.boot;

import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.annotation.Order;

/**
 * An {@code Observation} per transfer of {@link SluiceTransfers} and {@link SluiceFileParts}
 * ({@link TransferObservations}), when Micrometer's observation API is present and the application
 * has an {@link ObservationRegistry} (Spring Boot's actuator makes one); a
 * {@link SluiceTransferObservationConvention} bean replaces the default convention.
 */
@AutoConfiguration(
        after = SluiceAutoConfiguration.class,
        afterName = "org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration")
@ConditionalOnClass({ObservationRegistry.class, SluiceTransfers.class})
@ConditionalOnBean(ObservationRegistry.class)
public class SluiceObservationAutoConfiguration {

    /** The order of {@link TransferObservations} among the observers: outermost. */
    public static final int TRANSFER_OBSERVATIONS_ORDER = 0;

    /** Created by Spring. */
    public SluiceObservationAutoConfiguration() {}

    /**
     * The transfers' observations.
     *
     * @param registry where they go
     * @param convention the application's convention, if any
     * @return the observer that makes them
     */
    @Bean
    @ConditionalOnMissingBean
    @Order(TRANSFER_OBSERVATIONS_ORDER)
    public TransferObservations sluiceTransferObservations(
            ObservationRegistry registry, ObjectProvider<SluiceTransferObservationConvention> convention) {
        return new TransferObservations(registry, convention.getIfAvailable());
    }
}
