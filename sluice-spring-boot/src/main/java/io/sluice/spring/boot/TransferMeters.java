package io.sluice.spring.boot;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.BaseUnits;
import reactor.core.publisher.Flux;
import reactor.core.publisher.SignalType;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Records each transfer in Micrometer meters, per kind ({@code write}, {@code read}, {@code copy}):
 * <ul>
 *   <li>{@code sluice.write}, {@code sluice.read}, {@code sluice.copy}: timers of the transfers'
 *       durations, from subscription to the end, tagged {@code outcome} ({@code completed},
 *       {@code failed}, {@code cancelled}) and {@code exception} (the failure's simple class name,
 *       or {@code none}): failures are the count of {@code outcome=failed};</li>
 *   <li>{@code sluice.write.bytes}, {@code sluice.read.bytes}, {@code sluice.copy.bytes}: counters
 *       of the bytes moved (base unit bytes), incremented when each transfer ends, whatever its
 *       outcome: a failed write's count is what it had written;</li>
 *   <li>{@code sluice.write.larger.items}: items that arrived larger than every one before them
 *       while more were requested, each of which can make a write hold more than its byte cap
 *       ({@code WriteListener.onLargerItem}); steadily rising, it suggests
 *       {@code sluice.write.max-item-bytes}.</li>
 * </ul>
 *
 * <p><b>Threading:</b> thread-safe; one instance serves every transfer.
 *
 * <p><b>Errors:</b> none of its own: the meters are recorded as the transfer ends, before its
 * subscriber is told.
 */
public final class TransferMeters implements TransferObserver {

    private final MeterRegistry registry;
    private final Map<Transfer.Kind, Counter> bytes = new EnumMap<>(Transfer.Kind.class);
    private final Counter largerItems;

    /**
     * Meters in {@code registry}; the counters are registered at once, so they read 0 before the
     * first transfer.
     *
     * @param registry where the meters go
     * @throws NullPointerException if {@code registry} is {@code null}
     */
    public TransferMeters(MeterRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
        for (Transfer.Kind kind : Transfer.Kind.values()) {
            bytes.put(
                    kind,
                    Counter.builder("sluice." + kind.tagValue() + ".bytes")
                            .baseUnit(BaseUnits.BYTES)
                            .description("Bytes moved by sluice " + kind.tagValue() + "s, counted as each ends")
                            .register(registry));
        }
        this.largerItems = Counter.builder("sluice.write.larger.items")
                .description("Items larger than every one before them while more were requested")
                .register(registry);
    }

    @Override
    public <T> Flux<T> observe(Transfer transfer, Flux<T> signals) {
        long[] started = new long[1];
        return Transfer.onEnds(
                signals,
                () -> started[0] = registry.config().clock().monotonicTime(),
                (signal, failure) -> record(
                        transfer, signal, failure, registry.config().clock().monotonicTime() - started[0]));
    }

    private void record(Transfer transfer, SignalType signal, Throwable failure, long nanos) {
        Timer.builder("sluice." + transfer.kind().tagValue())
                .description("Duration of sluice " + transfer.kind().tagValue() + "s")
                .tags(Tags.of(
                        "outcome",
                        Transfer.outcome(signal),
                        "exception",
                        failure == null ? "none" : failure.getClass().getSimpleName()))
                .register(registry)
                .record(nanos, TimeUnit.NANOSECONDS);
        bytes.get(transfer.kind()).increment(transfer.bytes());
        if (transfer.largerItems() > 0) {
            largerItems.increment(transfer.largerItems());
        }
    }
}
