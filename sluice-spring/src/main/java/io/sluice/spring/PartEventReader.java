package io.sluice.spring;

import org.springframework.core.ResolvableType;
import org.springframework.core.codec.DecodingException;
import org.springframework.http.MediaType;
import org.springframework.http.ReactiveHttpInputMessage;
import org.springframework.http.codec.HttpMessageReader;
import org.springframework.http.codec.multipart.PartEvent;
import org.springframework.http.codec.multipart.PartEventHttpMessageReader;
import org.springframework.util.Assert;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.nio.charset.Charset;
import java.util.List;
import java.util.Map;

/**
 * A reader of {@code Flux<PartEvent>} ({@code @RequestBody Flux<PartEvent>}, the input of
 * {@link FileParts#store}) on sluice's own multipart parser, in place of Spring's
 * {@link PartEventHttpMessageReader}: the same events (a form field as one {@code FormPartEvent}
 * with its value, a file part as {@code FilePartEvent}s carrying its content, the last saying
 * {@link PartEvent#isLast()}), found with a search for the boundary that skips ahead, each part's
 * content handed on as slices of the request's buffers.
 *
 * <pre>{@code
 * @Bean
 * WebFluxConfigurer sluicePartEvents() {
 *     return new WebFluxConfigurer() {
 *         public void configureHttpMessageCodecs(ServerCodecConfigurer configurer) {
 *             configurer.customCodecs().register(new PartEventReader());   // read before Spring's
 *         }
 *     };
 * }
 * }</pre>
 * ({@code sluice-spring-boot} registers one by itself, with Boot's {@code spring.webflux.multipart.*}
 * limits.)
 *
 * <p><b>Limits and errors:</b> those of Spring's reader, with its defaults, each failing the read
 * with the exception Spring's has for it: a {@link DecodingException} for too many parts, a
 * {@code DataBufferLimitException} for a part's headers, a form field or a part's content too
 * large; a {@code DecodingException} for a malformed body (no boundary in the Content-Type, none in
 * the body, or a body that ends before its close delimiter). WebFlux answers each with a 4xx.
 *
 * <p><b>Resources:</b> every buffer of the body is released once: by the consumer, through the
 * content of the events it received, or by the reader when the read ends early (a cancel, an error
 * of the body or of a limit) for the bytes it held and had not emitted. A consumer releases each
 * event's {@link PartEvent#content()}, as with Spring's reader.
 *
 * <p><b>Threading:</b> parsing runs where the request's body signals and as events are requested;
 * the setters' values are read when a read begins.
 */
public final class PartEventReader implements HttpMessageReader<PartEvent> {

    private volatile MultipartLimits limits =
            MultipartLimits.DEFAULTS; // setters replace it (configuration, one thread); a read takes it as it begins

    /** A reader with Spring's defaults: no limit on parts or bytes per part, 256 KiB per form field, 10 KiB of headers, UTF-8. */
    public PartEventReader() {}

    /**
     * The most parts a form may have; {@code -1} (the default) for no limit.
     *
     * @param maxParts the limit, or -1
     */
    public void setMaxParts(int maxParts) {
        limits = limits.withMaxParts(maxParts);
    }

    /**
     * The most bytes a form field may have, held in memory (256 KiB by default, as Spring's).
     *
     * @param maxInMemorySize the limit in bytes
     */
    public void setMaxInMemorySize(int maxInMemorySize) {
        limits = limits.withMaxInMemorySize(maxInMemorySize);
    }

    /**
     * The most bytes a part's headers may have (10 KiB by default, as Spring's).
     *
     * @param maxHeadersSize the limit in bytes
     */
    public void setMaxHeadersSize(int maxHeadersSize) {
        limits = limits.withMaxHeadersSize(maxHeadersSize);
    }

    /**
     * The most content bytes any part may have; {@code -1} (the default) for no limit.
     *
     * @param maxPartSize the limit in bytes, or -1
     */
    public void setMaxPartSize(long maxPartSize) {
        limits = limits.withMaxPartSize(maxPartSize);
    }

    /**
     * The charset of the parts' headers (UTF-8 by default).
     *
     * @param charset the charset
     */
    public void setHeadersCharset(Charset charset) {
        Assert.notNull(charset, "Charset must not be null"); // as Spring's reader refuses it
        limits = limits.withHeadersCharset(charset);
    }

    @Override
    public List<MediaType> getReadableMediaTypes() {
        return List.of(MediaType.MULTIPART_FORM_DATA);
    }

    @Override
    public boolean canRead(ResolvableType elementType, MediaType mediaType) {
        return PartEvent.class.equals(elementType.toClass())
                && (mediaType == null || MediaType.MULTIPART_FORM_DATA.isCompatibleWith(mediaType));
    }

    @Override
    public Mono<PartEvent> readMono(
            ResolvableType elementType, ReactiveHttpInputMessage message, Map<String, Object> hints) {
        return Mono.error(new UnsupportedOperationException(
                "A multipart body is read as a Flux<PartEvent>, not one " + "PartEvent"));
    }

    @Override
    public Flux<PartEvent> read(
            ResolvableType elementType, ReactiveHttpInputMessage message, Map<String, Object> hints) {
        return Flux.defer(() -> MultipartPublisher.read(message, limits));
    }
}
