package io.sluice.spring.boot;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import reactor.core.publisher.Flux;

import java.util.Objects;

/**
 * An {@link Observation} per transfer, {@code sluice.transfer} by default (names and keys:
 * {@link DefaultSluiceTransferObservationConvention}): started when the transfer is subscribed,
 * stopped when it completes, fails (the failure is the observation's error) or is cancelled. Its
 * parent is the observation in the subscriber's Reactor context (Micrometer's key
 * {@code micrometer.observation}, where Spring WebFlux puts the request's), and it is itself put in
 * the context the transfer subscribes its source with.
 *
 * <p>With Spring Boot's actuator the observation also makes a timer {@code sluice.transfer} and a
 * long task timer {@code sluice.transfer.active}, and a span where tracing is configured;
 * {@code management.observations.enable.sluice.transfer=false} turns it off.
 *
 * <p><b>Threading:</b> thread-safe; one instance serves every transfer.
 */
public final class TransferObservations implements TransferObserver {

    /** The key of the current observation in a Reactor context: ObservationThreadLocalAccessor.KEY. */
    static final String CONTEXT_KEY = "micrometer.observation";

    private final ObservationRegistry registry;
    private final SluiceTransferObservationConvention convention; // null: the default

    /**
     * Observations in {@code registry}.
     *
     * @param registry where the observations go
     * @param convention the convention that replaces the default, or {@code null} for
     *     {@link DefaultSluiceTransferObservationConvention}
     * @throws NullPointerException if {@code registry} is {@code null}
     */
    public TransferObservations(ObservationRegistry registry, SluiceTransferObservationConvention convention) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.convention = convention;
    }

    @Override
    public <T> Flux<T> observe(Transfer transfer, Flux<T> signals) {
        return Flux.deferContextual(reactorContext -> {
            SluiceTransferContext context = new SluiceTransferContext(transfer);
            Observation observation = Observation.createNotStarted(
                    convention, DefaultSluiceTransferObservationConvention.INSTANCE, () -> context, registry);
            Observation parent = reactorContext.getOrDefault(CONTEXT_KEY, null);
            if (parent != null) {
                observation.parentObservation(parent);
            }
            return Transfer.onEnds(signals, observation::start, (signal, failure) -> {
                        if (failure != null) {
                            observation.error(failure);
                        }
                        context.setOutcome(Transfer.outcome(signal));
                        observation.stop();
                    })
                    .contextWrite(inner -> inner.put(CONTEXT_KEY, observation));
        });
    }
}
