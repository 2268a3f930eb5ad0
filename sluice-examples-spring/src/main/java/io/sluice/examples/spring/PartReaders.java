package io.sluice.examples.spring;

import io.sluice.WriteOptions;
import io.sluice.spring.StoringPartReader;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.ResolvableType;
import org.springframework.http.MediaType;
import org.springframework.http.ReactiveHttpInputMessage;
import org.springframework.http.codec.HttpMessageReader;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.http.codec.multipart.DefaultPartHttpMessageReader;
import org.springframework.http.codec.multipart.MultipartHttpMessageReader;
import org.springframework.http.codec.multipart.Part;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.reactive.config.WebFluxConfigurer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Each variant reads its multipart forms its own way: {@code /sluice/...} with sluice's
 * {@link StoringPartReader} (file parts stored through sluice, beside the storage directory so that
 * {@code transferTo} renames them into it), everything else with Spring's
 * {@link DefaultPartHttpMessageReader}. One application holds both variants, and the codecs are
 * the application's; an application with one variant registers {@code StoringPartReader} alone
 * (or lets {@code sluice-spring-boot} do it).
 */
@Configuration(proxyBeanMethods = false)
class PartReaders implements WebFluxConfigurer {

    private final StoringPartReader sluice; // /sluice/...
    private final DefaultPartHttpMessageReader spring = new DefaultPartHttpMessageReader(); // the rest

    PartReaders(Storage storage) {
        Path directory = storage.directory();
        this.sluice = new StoringPartReader(
                created(directory.resolveSibling(directory.getFileName() + ".parts")), WriteOptions.defaults());
    }

    @Override
    public void configureHttpMessageCodecs(ServerCodecConfigurer configurer) {
        ByPath parts = new ByPath(sluice, spring);
        configurer.defaultCodecs().multipartReader(new MultipartHttpMessageReader(parts));
        configurer.customCodecs().register(parts);
    }

    /** The directory sluice's reader stores file parts in. */
    Path sluiceStorage() {
        return sluice.storage();
    }

    private static Path created(Path directory) {
        try {
            return Files.createDirectories(directory);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads a request's parts with sluice's reader under {@code /sluice/}, with Spring's otherwise. */
    record ByPath(HttpMessageReader<Part> sluice, HttpMessageReader<Part> spring) implements HttpMessageReader<Part> {

        @Override
        public List<MediaType> getReadableMediaTypes() {
            return spring.getReadableMediaTypes();
        }

        @Override
        public boolean canRead(ResolvableType elementType, MediaType mediaType) {
            return spring.canRead(elementType, mediaType);
        }

        @Override
        public Flux<Part> read(
                ResolvableType elementType, ReactiveHttpInputMessage message, Map<String, Object> hints) {
            return readerFor(message).read(elementType, message, hints);
        }

        @Override
        public Mono<Part> readMono(
                ResolvableType elementType, ReactiveHttpInputMessage message, Map<String, Object> hints) {
            return readerFor(message).readMono(elementType, message, hints);
        }

        HttpMessageReader<Part> readerFor(ReactiveHttpInputMessage message) {
            boolean sluicePath = message instanceof ServerHttpRequest request
                    && request.getPath().pathWithinApplication().value().startsWith("/sluice/");
            return sluicePath ? sluice : spring;
        }
    }
}
