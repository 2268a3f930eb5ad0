package io.sluice.spring.boot;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.sluice.ChunkPool;

import java.util.Objects;
import java.util.function.ToDoubleFunction;

/**
 * A {@link ChunkPool}'s state as Micrometer meters, tagged {@code name} (the pool's bean name) and
 * {@code chunk.size} (its chunk size in bytes):
 * <ul>
 *   <li>{@code sluice.pool.lent}: chunks lent since the pool was created (a function counter);</li>
 *   <li>{@code sluice.pool.overflowed}: heap chunks lent because every direct buffer was out, a
 *       sign the pool is too small (a function counter);</li>
 *   <li>{@code sluice.pool.idle}, {@code sluice.pool.allocated}, {@code sluice.pool.max}: direct
 *       buffers idle in the pool, alive (idle or lent), and the most it holds (gauges).</li>
 * </ul>
 * All in the unit {@code chunks}; multiply by {@code chunk.size} for bytes.
 *
 * <p><b>Threading:</b> the meters read the pool's counters from any thread, as {@link ChunkPool}
 * allows.
 *
 * <p><b>Resources:</b> the meters hold the pool weakly, as Micrometer's gauges do: a pool that is
 * no longer reachable reads {@code NaN}.
 */
public final class ChunkPoolMetrics implements MeterBinder {

    private final ChunkPool pool;
    private final Tags tags;

    /**
     * Meters for {@code pool}.
     *
     * @param pool the pool to measure
     * @param name the value of the {@code name} tag, the pool's bean name in an application context
     * @throws NullPointerException if an argument is {@code null}
     */
    public ChunkPoolMetrics(ChunkPool pool, String name) {
        this.pool = Objects.requireNonNull(pool, "pool");
        this.tags = Tags.of(
                "name", Objects.requireNonNull(name, "name"), "chunk.size", Integer.toString(pool.chunkSizeBytes()));
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        counter(registry, "sluice.pool.lent", "Chunks lent since the pool was created", ChunkPool::lentChunks);
        counter(
                registry,
                "sluice.pool.overflowed",
                "Heap chunks lent because every direct buffer was out",
                ChunkPool::overflowed);
        gauge(registry, "sluice.pool.idle", "Direct buffers idle in the pool", ChunkPool::idleChunks);
        gauge(registry, "sluice.pool.allocated", "Direct buffers alive, idle or lent", ChunkPool::allocatedChunks);
        gauge(registry, "sluice.pool.max", "The most direct buffers the pool holds", ChunkPool::maxChunks);
    }

    private void counter(MeterRegistry registry, String name, String description, ToDoubleFunction<ChunkPool> count) {
        FunctionCounter.builder(name, pool, count)
                .tags(tags)
                .baseUnit("chunks")
                .description(description)
                .register(registry);
    }

    private void gauge(MeterRegistry registry, String name, String description, ToDoubleFunction<ChunkPool> value) {
        Gauge.builder(name, pool, value)
                .tags(tags)
                .baseUnit("chunks")
                .description(description)
                .register(registry);
    }
}
