package io.sluice.spring.boot;

import io.micrometer.common.KeyValues;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.MediaType;
import org.springframework.http.codec.multipart.FilePartEvent;
import org.springframework.http.codec.multipart.PartEvent;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.sluice.spring.boot.SluiceMetricsTest.chunks;
import static io.sluice.spring.boot.SluiceMetricsTest.completed;
import static org.assertj.core.api.Assertions.assertThat;

class SluiceObservationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    SluiceAutoConfiguration.class,
                    SluiceMetricsAutoConfiguration.class,
                    SluiceObservationAutoConfiguration.class))
            .withBean(TestObservationRegistry.class, TestObservationRegistry::create);

    @TempDir
    Path dir;

    @Test
    void aWriteIsObservedFromSubscriptionToCompletion() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(TransferObservations.class).doesNotHaveBean(TransferMeters.class);
            TestObservationRegistry registry = context.getBean(TestObservationRegistry.class);
            Path file = dir.resolve("observed.bin");
            Mono<Long> write = context.getBean(SluiceTransfers.class).write(chunks(new byte[100_000], 4096), file);
            TestObservationRegistryAssert.assertThat(registry).doesNotHaveAnyObservation();
            assertThat(completed(write)).isEqualTo(100_000);
            TestObservationRegistryAssert.assertThat(registry)
                    .hasNumberOfObservationsEqualTo(1)
                    .hasObservationWithNameEqualTo("sluice.transfer")
                    .that()
                    .hasContextualNameEqualTo("sluice write")
                    .hasBeenStarted()
                    .hasBeenStopped()
                    .hasLowCardinalityKeyValue("sluice.operation", "write")
                    .hasLowCardinalityKeyValue("sluice.outcome", "completed")
                    .hasHighCardinalityKeyValue("sluice.bytes", "100000")
                    .hasHighCardinalityKeyValue("sluice.file", file.toString())
                    .doesNotHaveError();
        });
    }

    @Test
    void aFailedWriteIsObservedWithItsError() {
        runner.run(context -> {
            TestObservationRegistry registry = context.getBean(TestObservationRegistry.class);
            Path missing = dir.resolve("no-such-dir").resolve("file.bin");
            StepVerifier.create(context.getBean(SluiceTransfers.class).upload(chunks(new byte[10], 5), missing))
                    .expectError(NoSuchFileException.class)
                    .verify(Duration.ofSeconds(30));
            TestObservationRegistryAssert.assertThat(registry)
                    .hasObservationWithNameEqualTo("sluice.transfer")
                    .that()
                    .hasBeenStarted()
                    .hasBeenStopped()
                    .hasLowCardinalityKeyValue("sluice.outcome", "failed")
                    .hasError()
                    .assertThatError()
                    .isInstanceOf(NoSuchFileException.class);
        });
    }

    @Test
    void aCancelledWriteIsObservedAsCancelled() throws Exception {
        runner.run(context -> {
            TestObservationRegistry registry = context.getBean(TestObservationRegistry.class);
            CountDownLatch firstSent = new CountDownLatch(1);
            // One buffer, then a client that never sends the rest.
            Flux<DataBuffer> stalled = chunks(new byte[10], 10)
                    .doOnNext(buffer -> firstSent.countDown())
                    .concatWith(Flux.never());
            Path file = dir.resolve("cancelled.bin");
            Disposable upload =
                    context.getBean(SluiceTransfers.class).upload(stalled, file).subscribe();
            assertThat(firstSent.await(10, TimeUnit.SECONDS)).isTrue();
            TestObservationRegistryAssert.assertThat(registry)
                    .hasObservationWithNameEqualTo("sluice.transfer")
                    .that()
                    .hasBeenStarted()
                    .isNotStopped();
            upload.dispose();
            TestObservationRegistryAssert.assertThat(registry)
                    .hasObservationWithNameEqualTo("sluice.transfer")
                    .that()
                    .hasBeenStopped()
                    .hasLowCardinalityKeyValue("sluice.outcome", "cancelled")
                    .doesNotHaveError();
            assertThat(file).as("a cancelled upload leaves nothing").doesNotExist();
        });
    }

    @Test
    void aReadIsObservedWithTheBytesEmittedAndTheSubscribersObservationAsParent() {
        runner.run(context -> {
            TestObservationRegistry registry = context.getBean(TestObservationRegistry.class);
            Path file = dir.resolve("read.bin");
            Files.write(file, new byte[200_000]);
            Observation request = Observation.start("http.server.requests", registry);
            Long read = context.getBean(SluiceTransfers.class)
                    .read(file, DefaultDataBufferFactory.sharedInstance)
                    .map(buffer -> {
                        long bytes = buffer.readableByteCount();
                        DataBufferUtils.release(buffer);
                        return bytes;
                    })
                    .reduce(0L, Long::sum)
                    .contextWrite(reactor -> reactor.put(TransferObservations.CONTEXT_KEY, request))
                    .block(Duration.ofSeconds(30));
            request.stop();
            assertThat(read).isEqualTo(200_000);
            TestObservationRegistryAssert.assertThat(registry)
                    .hasObservationWithNameEqualTo("sluice.transfer")
                    .that()
                    .hasContextualNameEqualTo("sluice read")
                    .hasLowCardinalityKeyValue("sluice.operation", "read")
                    .hasLowCardinalityKeyValue("sluice.outcome", "completed")
                    .hasHighCardinalityKeyValue("sluice.bytes", "200000")
                    .hasParentObservationContextMatching(
                            parent -> parent.getName().equals("http.server.requests"));
        });
    }

    @Test
    void aStreamedFormIsOneObservedWrite() {
        runner.run(context -> {
            TestObservationRegistry registry = context.getBean(TestObservationRegistry.class);
            Flux<PartEvent> form = Flux.concat(
                    FilePartEvent.create(
                            "a",
                            "a.txt",
                            MediaType.TEXT_PLAIN,
                            Flux.just(DefaultDataBufferFactory.sharedInstance.wrap(new byte[300]))),
                    FilePartEvent.create(
                            "b",
                            "b.txt",
                            MediaType.TEXT_PLAIN,
                            Flux.just(DefaultDataBufferFactory.sharedInstance.wrap(new byte[700]))));
            StepVerifier.create(
                            context.getBean(SluiceFileParts.class).store(form, part -> dir.resolve(part.filename())))
                    .expectNextCount(2)
                    .verifyComplete();
            assertThat(dir.resolve("a.txt")).hasSize(300);
            assertThat(dir.resolve("b.txt")).hasSize(700);
            TestObservationRegistryAssert.assertThat(registry)
                    .hasNumberOfObservationsEqualTo(1)
                    .hasObservationWithNameEqualTo("sluice.transfer")
                    .that()
                    .hasLowCardinalityKeyValue("sluice.outcome", "completed")
                    .hasHighCardinalityKeyValue("sluice.bytes", "1000")
                    .doesNotHaveHighCardinalityKeyValueWithKey("sluice.file");
        });
    }

    @Test
    void anApplicationsConventionReplacesTheDefault() {
        SluiceTransferObservationConvention renamed = new DefaultSluiceTransferObservationConvention() {
            @Override
            public String getName() {
                return "storage.transfer";
            }

            @Override
            public KeyValues getHighCardinalityKeyValues(SluiceTransferContext context) {
                return KeyValues.empty(); // no paths in traces
            }
        };
        runner.withBean(SluiceTransferObservationConvention.class, () -> renamed)
                .run(context -> {
                    TestObservationRegistry registry = context.getBean(TestObservationRegistry.class);
                    completed(context.getBean(SluiceTransfers.class)
                            .write(chunks(new byte[10], 10), dir.resolve("x.bin")));
                    TestObservationRegistryAssert.assertThat(registry)
                            .hasObservationWithNameEqualTo("storage.transfer")
                            .that()
                            .hasLowCardinalityKeyValue("sluice.outcome", "completed")
                            .doesNotHaveHighCardinalityKeyValueWithKey("sluice.file");
                });
    }

    @Test
    void withBothRegistriesATransferIsMeasuredAndObserved() {
        runner.withBean(SimpleMeterRegistry.class).run(context -> {
            assertThat(context.getBean(SluiceTransfers.class)).isNotNull();
            assertThat(context.getBeanProvider(TransferObserver.class)
                            .orderedStream()
                            .toList())
                    .as("the observation outermost")
                    .hasExactlyElementsOfTypes(TransferObservations.class, TransferMeters.class);
            completed(
                    context.getBean(SluiceTransfers.class).write(chunks(new byte[1000], 100), dir.resolve("both.bin")));
            assertThat(context.getBean(MeterRegistry.class)
                            .get("sluice.write.bytes")
                            .counter()
                            .count())
                    .isEqualTo(1000);
            TestObservationRegistryAssert.assertThat(context.getBean(TestObservationRegistry.class))
                    .hasObservationWithNameEqualTo("sluice.transfer")
                    .that()
                    .hasHighCardinalityKeyValue("sluice.bytes", "1000");
        });
    }

    @Test
    void aNoopRegistryMakesNoObservation() {
        new ApplicationContextRunner()
                .withConfiguration(
                        AutoConfigurations.of(SluiceAutoConfiguration.class, SluiceObservationAutoConfiguration.class))
                .withBean(ObservationRegistry.class, () -> ObservationRegistry.NOOP)
                .run(context -> {
                    assertThat(context).hasSingleBean(TransferObservations.class);
                    assertThat(completed(context.getBean(SluiceTransfers.class)
                                    .write(chunks(new byte[10], 10), dir.resolve("noop.bin"))))
                            .isEqualTo(10);
                });
    }
}
