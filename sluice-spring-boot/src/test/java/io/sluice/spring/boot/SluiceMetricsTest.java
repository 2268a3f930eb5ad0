package io.sluice.spring.boot;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.ChunkPool;
import io.sluice.WriteListener;
import io.sluice.WriteOptions;
import io.sluice.WriteSnapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SluiceMetricsTest {

    private static final int SIZE = 3 * 1024 * 1024 + 17;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    SluiceAutoConfiguration.class,
                    SluiceMetricsAutoConfiguration.class,
                    SluiceObservationAutoConfiguration.class))
            .withBean(SimpleMeterRegistry.class);

    @TempDir
    Path dir;

    @Test
    void writesAndReadsAreCountedAndTimed() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(TransferMeters.class).doesNotHaveBean(TransferObservations.class);
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            SluiceTransfers transfers = context.getBean(SluiceTransfers.class);
            assertThat(registry.get("sluice.write.bytes").counter().count())
                    .as("registered before any write")
                    .isZero();

            byte[] content = new byte[SIZE];
            new Random(7).nextBytes(content);
            Path file = dir.resolve("data.bin");
            assertThat(completed(transfers.upload(chunks(content, 8192), file))).isEqualTo(SIZE);
            Timer writes = registry.get("sluice.write")
                    .tag("outcome", "completed")
                    .tag("exception", "none")
                    .timer();
            assertThat(writes.count()).isEqualTo(1);
            assertThat(writes.totalTime(TimeUnit.NANOSECONDS)).isPositive();
            assertThat(registry.get("sluice.write.bytes").counter().count()).isEqualTo(SIZE);

            long read = transfers
                    .read(file, DefaultDataBufferFactory.sharedInstance)
                    .map(buffer -> {
                        int bytes = buffer.readableByteCount();
                        DataBufferUtils.release(buffer);
                        return (long) bytes;
                    })
                    .reduce(0L, Long::sum)
                    .block(Duration.ofSeconds(30));
            assertThat(read).isEqualTo(SIZE);
            assertThat(registry.get("sluice.read")
                            .tag("outcome", "completed")
                            .timer()
                            .count())
                    .isEqualTo(1);
            assertThat(registry.get("sluice.read.bytes").counter().count()).isEqualTo(SIZE);

            Path copy = dir.resolve("copy.bin");
            assertThat(completed(transfers.copy(file, copy))).isEqualTo(SIZE);
            assertThat(registry.get("sluice.copy")
                            .tag("outcome", "completed")
                            .timer()
                            .count())
                    .isEqualTo(1);
            assertThat(registry.get("sluice.copy.bytes").counter().count()).isEqualTo(SIZE);
            assertThat(Files.mismatch(file, copy)).isEqualTo(-1);
        });
    }

    @Test
    void aFailedWriteIsTaggedWithItsException() {
        runner.run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            SluiceTransfers transfers = context.getBean(SluiceTransfers.class);
            Path missing = dir.resolve("no-such-dir").resolve("file.bin");
            StepVerifier.create(transfers.write(chunks(new byte[100], 10), missing))
                    .expectError(NoSuchFileException.class)
                    .verify(Duration.ofSeconds(30));
            assertThat(registry.get("sluice.write")
                            .tag("outcome", "failed")
                            .tag("exception", "NoSuchFileException")
                            .timer()
                            .count())
                    .isEqualTo(1);
            assertThat(registry.find("sluice.write").tag("outcome", "completed").timer())
                    .isNull();
            assertThatThrownBy(() -> transfers
                            .read(missing, DefaultDataBufferFactory.sharedInstance)
                            .blockLast(Duration.ofSeconds(30)))
                    .hasCauseInstanceOf(NoSuchFileException.class);
            assertThat(registry.get("sluice.read")
                            .tag("outcome", "failed")
                            .timer()
                            .count())
                    .isEqualTo(1);
        });
    }

    @Test
    void largerItemsAreCountedAndTheApplicationsListenerStillCalled() {
        AtomicLong passes = new AtomicLong();
        AtomicLong larger = new AtomicLong();
        WriteOptions withListener = WriteOptions.defaults().withListener(new WriteListener() {
            @Override
            public void onPass(WriteSnapshot snapshot) {
                passes.incrementAndGet();
            }

            @Override
            public void onLargerItem(long itemBytes, long previousLargestBytes, long outstandingItems) {
                larger.incrementAndGet();
            }
        });
        runner.withBean(WriteOptions.class, () -> withListener).run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            // Items that double: each one larger than all before it, arriving while more are requested.
            Flux<DataBuffer> growing =
                    Flux.range(0, 17).map(power -> DefaultDataBufferFactory.sharedInstance.wrap(new byte[1 << power]));
            long written = completed(context.getBean(SluiceTransfers.class).write(growing, dir.resolve("growing.bin")));
            assertThat(written).isEqualTo((1L << 17) - 1);
            assertThat(larger.get())
                    .as("the application's listener saw larger items")
                    .isPositive();
            assertThat(passes.get()).isPositive();
            assertThat(registry.get("sluice.write.larger.items").counter().count())
                    .isEqualTo(larger.get());
        });
    }

    @Test
    void everyPoolBeanHasItsMeters() {
        runner.withPropertyValues("sluice.pool.chunk-size=16KB", "sluice.pool.max-chunks=2")
                .withBean(
                        "otherPool",
                        ChunkPool.class,
                        () -> ChunkPool.create(4096, 1),
                        bean -> bean.setAutowireCandidate(false))
                .run(context -> {
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    assertThat(registry.get("sluice.pool.max")
                                    .tag("name", "otherPool")
                                    .tag("chunk.size", "4096")
                                    .gauge()
                                    .value())
                            .isEqualTo(1);
                    assertThat(registry.get("sluice.pool.max")
                                    .tag("name", "sluiceChunkPool")
                                    .tag("chunk.size", "16384")
                                    .gauge()
                                    .value())
                            .isEqualTo(2);
                    Path file = dir.resolve("pool.bin");
                    Files.write(file, new byte[5 * 16 * 1024]);
                    SluiceTransfers transfers = context.getBean(SluiceTransfers.class);
                    // Hold every buffer: 5 chunks from a pool of 2 direct buffers, so 3 overflow.
                    var held = transfers
                            .read(file, DefaultDataBufferFactory.sharedInstance)
                            .collectList()
                            .block(Duration.ofSeconds(30));
                    assertThat(held).hasSize(5);
                    assertThat(registry.get("sluice.pool.lent")
                                    .tag("name", "sluiceChunkPool")
                                    .functionCounter()
                                    .count())
                            .isEqualTo(5);
                    assertThat(registry.get("sluice.pool.overflowed")
                                    .tag("name", "sluiceChunkPool")
                                    .functionCounter()
                                    .count())
                            .isEqualTo(3);
                    assertThat(registry.get("sluice.pool.allocated")
                                    .tag("name", "sluiceChunkPool")
                                    .gauge()
                                    .value())
                            .isEqualTo(2);
                    assertThat(registry.get("sluice.pool.idle")
                                    .tag("name", "sluiceChunkPool")
                                    .gauge()
                                    .value())
                            .isZero();
                    held.forEach(DataBufferUtils::release);
                    assertThat(registry.get("sluice.pool.idle")
                                    .tag("name", "sluiceChunkPool")
                                    .gauge()
                                    .value())
                            .as("given back")
                            .isEqualTo(2);
                });
    }

    @Test
    void withoutAMeterRegistryBeanNothingIsMeasured() {
        new ApplicationContextRunner()
                .withConfiguration(
                        AutoConfigurations.of(SluiceAutoConfiguration.class, SluiceMetricsAutoConfiguration.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(TransferMeters.class));
    }

    /** The transfer's count, once it has completed: block() would return at the count, before the end. */
    static long completed(Mono<Long> transfer) {
        AtomicLong count = new AtomicLong(-1);
        StepVerifier.create(transfer)
                .consumeNextWith(count::set)
                .expectComplete()
                .verify(Duration.ofSeconds(30));
        return count.get();
    }

    static Flux<DataBuffer> chunks(byte[] content, int size) {
        return Flux.range(0, (content.length + size - 1) / size).map(index -> {
            int from = index * size;
            byte[] part = Arrays.copyOfRange(content, from, Math.min(content.length, from + size));
            return DefaultDataBufferFactory.sharedInstance.wrap(part);
        });
    }
}
