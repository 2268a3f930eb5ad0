package io.sluice.spring.boot;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.spring.PartEventReader;
import io.sluice.spring.StoringPartReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.web.reactive.ReactiveMultipartAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.web.codec.CodecCustomizer;
import org.springframework.context.ApplicationContext;
import org.springframework.core.ResolvableType;
import org.springframework.core.codec.DecodingException;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.client.MultipartBodyBuilder;
import org.springframework.http.codec.HttpMessageReader;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.http.codec.multipart.DefaultPartHttpMessageReader;
import org.springframework.http.codec.multipart.MultipartHttpMessageReader;
import org.springframework.http.codec.multipart.MultipartHttpMessageWriter;
import org.springframework.http.codec.multipart.Part;
import org.springframework.http.codec.multipart.PartEvent;
import org.springframework.http.codec.multipart.PartEventHttpMessageReader;
import org.springframework.mock.http.client.reactive.MockClientHttpRequest;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.util.MultiValueMap;
import reactor.core.publisher.Mono;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The multipart reader a reactive application gets: sluice's, with Boot's limits, unless turned off. */
class SluiceMultipartAutoConfigurationTest {

    private final ReactiveWebApplicationContextRunner runner = new ReactiveWebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    SluiceAutoConfiguration.class,
                    ReactiveMultipartAutoConfiguration.class,
                    SluiceMultipartAutoConfiguration.class));

    @TempDir
    Path storage;

    @Test
    void theServersMultipartReaderIsSluicesWithBootsLimitsAndDirectory() {
        runner.withPropertyValues(
                        "spring.webflux.multipart.file-storage-directory=" + storage,
                        "spring.webflux.multipart.max-parts=7")
                .run(context -> {
                    StoringPartReader reader = context.getBean(StoringPartReader.class);
                    assertThat(reader.storage()).isEqualTo(storage);
                    assertThat(multipartReaderOf(context)).isSameAs(reader);
                    assertThat(partReadersOf(context)).containsExactly(reader);
                });
    }

    @Test
    void eachStoredFilePartIsAMeasuredWrite() {
        byte[] photo = new byte[300_001];
        byte[] notes = new byte[4_096];
        new Random(3).nextBytes(photo);
        runner.withConfiguration(AutoConfigurations.of(SluiceMetricsAutoConfiguration.class))
                .withBean(SimpleMeterRegistry.class)
                .withPropertyValues("spring.webflux.multipart.file-storage-directory=" + storage)
                .run(context -> {
                    StoringPartReader reader = context.getBean(StoringPartReader.class);
                    MeterRegistry registry = context.getBean(MeterRegistry.class);

                    List<Part> parts = reader.read(ResolvableType.forClass(Part.class), form(photo, notes), Map.of())
                            .collectList()
                            .block(Duration.ofSeconds(30));

                    assertThat(parts).hasSize(3);
                    assertThat(registry.get("sluice.write")
                                    .tag("outcome", "completed")
                                    .timer()
                                    .count())
                            .isEqualTo(2);
                    assertThat(registry.get("sluice.write.bytes").counter().count())
                            .isEqualTo(photo.length + notes.length);
                    parts.forEach(part -> part.delete().block(Duration.ofSeconds(30)));
                });
    }

    /** A form of a field and two file parts, encoded by Spring's own writer, as a server request. */
    private static MockServerHttpRequest form(byte[] photo, byte[] notes) {
        MultipartBodyBuilder builder = new MultipartBodyBuilder();
        builder.part("title", "a title");
        builder.part("photo", new ByteArrayResource(photo)).filename("photo.bin");
        builder.part("notes", new ByteArrayResource(notes)).filename("notes.txt");
        MockClientHttpRequest encoded = new MockClientHttpRequest(HttpMethod.POST, URI.create("/upload"));
        new MultipartHttpMessageWriter()
                .write(
                        Mono.just(builder.build()),
                        ResolvableType.forClass(MultiValueMap.class),
                        MediaType.MULTIPART_FORM_DATA,
                        encoded,
                        Map.of())
                .block(Duration.ofSeconds(30));
        return MockServerHttpRequest.post("/upload")
                .contentType(encoded.getHeaders().getContentType())
                .body(encoded.getBody());
    }

    @Test
    void partEventsAreReadBySluicesReaderWithBootsLimits() {
        runner.withPropertyValues("spring.webflux.multipart.max-parts=2").run(context -> {
            PartEventReader reader = context.getBean(PartEventReader.class);
            assertThat(partEventReaderOf(context)).isSameAs(reader);

            assertThatThrownBy(() -> reader.read(
                                    ResolvableType.forClass(PartEvent.class),
                                    form(new byte[10], new byte[10]),
                                    Map.of())
                            .doOnNext(event -> DataBufferUtils.release(event.content()))
                            .blockLast(Duration.ofSeconds(30)))
                    .isInstanceOf(DecodingException.class)
                    .hasMessage("Too many parts (3/2 allowed)");
        });
    }

    @Test
    void anApplicationsOwnPartEventReaderIsUsedAsItIs() {
        PartEventReader own = new PartEventReader();
        runner.withBean(PartEventReader.class, () -> own)
                .run(context -> assertThat(partEventReaderOf(context)).isSameAs(own));
    }

    @Test
    void turnedOffSpringsPartEventReaderStays() {
        runner.withPropertyValues("sluice.multipart.enabled=false").run(context -> {
            assertThat(context).doesNotHaveBean(PartEventReader.class);
            assertThat(partEventReaderOf(context)).isInstanceOf(PartEventHttpMessageReader.class);
        });
    }

    @Test
    void withoutADirectoryTheReaderStoresInANewTemporaryOne() {
        runner.run(context -> {
            Path directory = context.getBean(StoringPartReader.class).storage();
            assertThat(directory).isDirectory();
            assertThat(directory.getFileName().toString()).startsWith("sluice-parts-");
        });
    }

    @Test
    void turnedOffSpringsReaderStays() {
        runner.withPropertyValues("sluice.multipart.enabled=false").run(context -> {
            assertThat(context).doesNotHaveBean(StoringPartReader.class);
            assertThat(multipartReaderOf(context)).isInstanceOf(DefaultPartHttpMessageReader.class);
            assertThat(partReadersOf(context)).singleElement().isInstanceOf(DefaultPartHttpMessageReader.class);
        });
    }

    @Test
    void outsideAReactiveWebApplicationThereIsNoReader() {
        new ApplicationContextRunner()
                .withConfiguration(
                        AutoConfigurations.of(SluiceAutoConfiguration.class, SluiceMultipartAutoConfiguration.class))
                .run(context -> assertThat(context).doesNotHaveBean(StoringPartReader.class));
    }

    /** The part reader of the multipart reader a server configured with the context's customizers gets. */
    private static HttpMessageReader<?> multipartReaderOf(ApplicationContext context) {
        return configured(context).getReaders().stream()
                .filter(MultipartHttpMessageReader.class::isInstance)
                .map(reader -> ((MultipartHttpMessageReader) reader).getPartReader())
                .findFirst()
                .orElseThrow();
    }

    /** The readers of {@code Flux<Part>} (a controller's {@code @RequestBody Flux<Part>}) the server gets. */
    private static List<HttpMessageReader<?>> partReadersOf(ApplicationContext context) {
        return configured(context).getReaders().stream()
                .filter(reader -> reader.canRead(ResolvableType.forClass(Part.class), MediaType.MULTIPART_FORM_DATA))
                .toList();
    }

    /** The reader of {@code Flux<PartEvent>} the server picks: the first of its readers that can read it. */
    private static HttpMessageReader<?> partEventReaderOf(ApplicationContext context) {
        return configured(context).getReaders().stream()
                .filter(reader ->
                        reader.canRead(ResolvableType.forClass(PartEvent.class), MediaType.MULTIPART_FORM_DATA))
                .findFirst()
                .orElseThrow();
    }

    private static ServerCodecConfigurer configured(ApplicationContext context) {
        ServerCodecConfigurer configurer = ServerCodecConfigurer.create();
        context.getBeanProvider(CodecCustomizer.class)
                .orderedStream()
                .forEach(customizer -> customizer.customize(configurer));
        return configurer;
    }
}
