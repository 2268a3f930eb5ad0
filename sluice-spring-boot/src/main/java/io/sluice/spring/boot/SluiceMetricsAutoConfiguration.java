package io.sluice.spring.boot;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.ChunkPool;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.annotation.Order;

/**
 * Micrometer meters for sluice, when Micrometer is present and the application has a
 * {@link MeterRegistry} (Spring Boot's actuator makes one): {@link TransferMeters} for the
 * transfers of {@link SluiceTransfers} and {@link SluiceFileParts}, and {@link ChunkPoolMetrics}
 * for every {@link ChunkPool} bean.
 */
@AutoConfiguration(
        after = SluiceAutoConfiguration.class,
        afterName = {
            "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration"
        })
@ConditionalOnClass({MeterRegistry.class, SluiceTransfers.class})
@ConditionalOnBean(MeterRegistry.class)
public class SluiceMetricsAutoConfiguration {

    /** The order of {@link TransferMeters} among the observers: inside the observation. */
    public static final int TRANSFER_METERS_ORDER = 100;

    /** Created by Spring. */
    public SluiceMetricsAutoConfiguration() {}

    /**
     * The transfers' meters.
     *
     * @param registry where they go
     * @return the observer that records them
     */
    @Bean
    @ConditionalOnMissingBean
    @Order(TRANSFER_METERS_ORDER)
    public TransferMeters sluiceTransferMeters(MeterRegistry registry) {
        return new TransferMeters(registry);
    }

    /**
     * Binds {@link ChunkPoolMetrics} for every {@link ChunkPool} bean, tagged with its bean name,
     * once all singletons exist (so that pools defined anywhere in the context are found).
     *
     * @param beans where the pools are
     * @param registry where their meters go
     * @return the binder
     */
    @Bean
    public static SmartInitializingSingleton sluiceChunkPoolMetricsBinder(
            ListableBeanFactory beans, ObjectProvider<MeterRegistry> registry) {
        return () -> beans.getBeansOfType(ChunkPool.class, false, false)
                .forEach((name, pool) -> new ChunkPoolMetrics(pool, name).bindTo(registry.getObject()));
    }
}
