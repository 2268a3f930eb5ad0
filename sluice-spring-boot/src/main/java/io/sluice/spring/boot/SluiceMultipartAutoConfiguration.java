package io.sluice.spring.boot;

import io.sluice.WriteMode;
import io.sluice.WriteOptions;
import io.sluice.spring.PartEventReader;
import io.sluice.spring.StoringPartReader;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.web.reactive.ReactiveMultipartAutoConfiguration;
import org.springframework.boot.autoconfigure.web.reactive.ReactiveMultipartProperties;
import org.springframework.boot.web.codec.CodecCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.http.codec.multipart.MultipartHttpMessageReader;
import org.springframework.http.codec.multipart.PartEventHttpMessageReader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * sluice's multipart reader for a reactive web application: {@code @RequestPart FilePart},
 * {@code Flux<Part>} and {@code exchange.getMultipartData()} get their file parts stored through
 * sluice, and {@code part.transferTo(dest)} moves the stored file instead of copying it. It takes
 * Boot's {@code spring.webflux.multipart.*} limits (parts, headers, form fields in memory, bytes
 * per part, headers' charset) and storage directory, and replaces the reader Boot's
 * {@link ReactiveMultipartAutoConfiguration} configures. {@code Flux<PartEvent>}
 * ({@code @RequestBody Flux<PartEvent>}, {@code FileParts.store}) is read by a {@link PartEventReader}
 * on sluice's parser, with the same limits, read before Spring's {@code PartEventHttpMessageReader}.
 * {@code sluice.multipart.enabled=false} keeps Spring's readers; an application's own
 * {@link StoringPartReader} or {@link PartEventReader} bean is used as it is.
 */
@AutoConfiguration(after = {SluiceAutoConfiguration.class, ReactiveMultipartAutoConfiguration.class})
@ConditionalOnClass({PartEventHttpMessageReader.class, CodecCustomizer.class})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnProperty(prefix = "sluice.multipart", name = "enabled", matchIfMissing = true)
public class SluiceMultipartAutoConfiguration {

    /** Created by Spring. */
    public SluiceMultipartAutoConfiguration() {}

    /**
     * The reader, with Boot's multipart limits and the default write options. Each stored file
     * part is a write through {@code transfers}, so the meters and observations count it as one.
     *
     * @param multipart Boot's {@code spring.webflux.multipart.*}, if bound
     * @param transfers the transfers that write the stored files, with their default write options
     * @return a reader storing file parts in Boot's storage directory, or else in a new temporary
     *     directory
     */
    @Bean
    @ConditionalOnMissingBean
    public StoringPartReader sluicePartReader(
            ObjectProvider<ReactiveMultipartProperties> multipart, SluiceTransfers transfers) {
        ReactiveMultipartProperties limits = multipart.getIfAvailable(ReactiveMultipartProperties::new);
        WriteOptions options = transfers.writeOptions().withMode(WriteMode.CREATE_NEW);
        StoringPartReader reader = new StoringPartReader(
                storage(limits.getFileStorageDirectory()), (content, file) -> transfers.write(content, file, options));
        reader.setMaxInMemorySize(Math.toIntExact(limits.getMaxInMemorySize().toBytes()));
        reader.setMaxHeadersSize(Math.toIntExact(limits.getMaxHeadersSize().toBytes()));
        reader.setMaxPartSize(limits.getMaxDiskUsagePerPart().toBytes());
        reader.setMaxParts(limits.getMaxParts());
        reader.setHeadersCharset(limits.getHeadersCharset());
        return reader;
    }

    /**
     * The reader of {@code Flux<PartEvent>}, on sluice's parser, with Boot's multipart limits.
     *
     * @param multipart Boot's {@code spring.webflux.multipart.*}, if bound
     * @return the reader
     */
    @Bean
    @ConditionalOnMissingBean
    public PartEventReader sluicePartEventReader(ObjectProvider<ReactiveMultipartProperties> multipart) {
        ReactiveMultipartProperties limits = multipart.getIfAvailable(ReactiveMultipartProperties::new);
        PartEventReader reader = new PartEventReader();
        reader.setMaxInMemorySize(Math.toIntExact(limits.getMaxInMemorySize().toBytes()));
        reader.setMaxHeadersSize(Math.toIntExact(limits.getMaxHeadersSize().toBytes()));
        reader.setMaxPartSize(limits.getMaxDiskUsagePerPart().toBytes());
        reader.setMaxParts(limits.getMaxParts());
        reader.setHeadersCharset(limits.getHeadersCharset());
        return reader;
    }

    /**
     * Registers the {@code PartEvent} reader with the server's codecs as a custom reader, which the
     * server asks before its default ones, Spring's {@code PartEventHttpMessageReader} among them.
     *
     * @param reader the reader
     * @return the customizer
     */
    @Bean
    public CodecCustomizer sluicePartEventReaderCustomizer(PartEventReader reader) {
        return configurer -> configurer.customCodecs().register(reader);
    }

    /**
     * Registers the reader with the server's codecs: as the part reader of its multipart reader
     * ({@code @RequestPart}, {@code getMultipartData()}), which replaces Spring's default part
     * reader (the one Boot's own customizer configures), and as the reader of {@code Flux<Part>}.
     *
     * @param reader the reader
     * @return the customizer
     */
    @Bean
    public CodecCustomizer sluicePartReaderCustomizer(StoringPartReader reader) {
        return configurer -> {
            configurer.defaultCodecs().multipartReader(new MultipartHttpMessageReader(reader));
            configurer.customCodecs().register(reader);
        };
    }

    private static Path storage(String directory) {
        try {
            return directory != null
                    ? Files.createDirectories(Path.of(directory))
                    : Files.createTempDirectory("sluice-parts-");
        } catch (IOException e) {
            throw new UncheckedIOException("Creating the directory for multipart file parts", e);
        }
    }
}
