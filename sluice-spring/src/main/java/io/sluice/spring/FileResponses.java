package io.sluice.spring;

import io.sluice.IoExecutors;
import io.sluice.ReadOptions;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpRange;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ZeroCopyHttpOutputMessage;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A file as a WebFlux response, in one call: what a download endpoint must get right and a
 * {@code Flux<DataBuffer>} body leaves to the caller.
 *
 * <pre>{@code
 * @GetMapping("/files/{id}")
 * Mono<Void> download(@PathVariable UUID id, ServerWebExchange exchange) {
 *     return FileResponses.write(exchange, uploads.resolve(id.toString()));
 * }
 * }</pre>
 *
 * <ul>
 *   <li><b>Content type</b>: {@code application/octet-stream} unless the options name one, never
 *       negotiated from {@code Accept} nor guessed from the name or the bytes
 *       ({@code X-Content-Type-Options: nosniff}), so a user's upload served back is never a page
 *       that runs script on the application's origin. {@link Options#withAttachment} adds
 *       {@code Content-Disposition: attachment}.</li>
 *   <li><b>Length and ranges</b>: {@code Content-Length} always; {@code Accept-Ranges: bytes}; one
 *       {@code Range} gets {@code 206 Partial Content} with {@code Content-Range}, or
 *       {@code 416} with {@code Content-Range: bytes *}{@code /size} when it starts beyond the
 *       end; several ranges, or a malformed header, get the whole file ({@code 200}), as HTTP
 *       allows; an {@code If-Range} that no longer matches gets the whole file too.</li>
 *   <li><b>Conditional requests</b>: a strong {@code ETag} (size and modification time) and
 *       {@code Last-Modified}; {@code If-Match}/{@code If-Unmodified-Since} that fail answer
 *       {@code 412}, then {@code If-None-Match}/{@code If-Modified-Since} answer {@code 304}, as
 *       {@link ServerWebExchange#checkNotModified(String, Instant)} decides.</li>
 *   <li><b>Methods</b>: {@code GET} and {@code HEAD} (headers only); any other gets {@code 405}
 *       with {@code Allow: GET, HEAD}.</li>
 *   <li><b>Missing files</b>: a file that does not exist, or is not a regular file (a directory, a
 *       FIFO, a device), gets {@code 404}, not an error.</li>
 *   <li><b>Body</b>: zero-copy ({@code sendfile}, through {@link ZeroCopyHttpOutputMessage}) where
 *       the server offers it, as Reactor Netty does; otherwise pooled chunks from
 *       {@link DataBufferFiles#read(Path, org.springframework.core.io.buffer.DataBufferFactory, ReadOptions)}
 *       with the response's buffer factory. The pooled path reads the range with
 *       {@link ReadOptions#withExactRange()}: a file that shrank since its size was sent fails the
 *       response at once (the connection is closed), never a body shorter than its
 *       {@code Content-Length} that leaves the client waiting.</li>
 * </ul>
 *
 * <p><b>Threading:</b> the file's attributes are read on {@link IoExecutors#files()}, never on the
 * calling (event loop) thread; the body is written as the server writes it.
 *
 * <p><b>Resources:</b> the pooled path holds at most the chunks the server has requested and not
 * yet sent. Reactor Netty requests up to {@code reactor.netty.send.maxPrefetchSize} buffers of a
 * response body (a system property, 128 by default) ahead of what the client has taken, so a slow
 * client can hold that many chunks: 8 MiB at the default 64 KiB. That property and the chunk size
 * ({@link Options#withReadOptions} with {@link ReadOptions#withChunkSize}) are the knobs that bound
 * it; the zero-copy path holds none. The file is closed when the body ends, whichever way.
 *
 * <p><b>Errors:</b> the caller resolves and checks the path (no traversal out of its directory):
 * this class serves the file it is given. A file that cannot be read for another reason (access
 * denied) ends the returned {@code Mono} with that error.
 */
public final class FileResponses {

    private static final String ALLOWED_METHODS = "GET, HEAD";

    private FileResponses() {}

    /**
     * Writes {@code file} as the response to {@code exchange} with {@link Options#defaults()}.
     *
     * @param exchange the request to answer
     * @param file the file to serve, resolved and checked by the caller
     * @return completes when the response is written; return it from a handler
     * @throws NullPointerException if an argument is {@code null}
     */
    public static Mono<Void> write(ServerWebExchange exchange, Path file) {
        return write(exchange, file, Options.defaults());
    }

    /**
     * Writes {@code file} as the response to {@code exchange}, as the class documentation says.
     *
     * @param exchange the request to answer
     * @param file the file to serve, resolved and checked by the caller
     * @param options content type, attachment name, zero-copy and read options
     * @return completes when the response is written; return it from a handler
     * @throws NullPointerException if an argument is {@code null}
     */
    public static Mono<Void> write(ServerWebExchange exchange, Path file, Options options) {
        Objects.requireNonNull(exchange, "exchange");
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(options, "options");
        ServerHttpResponse response = exchange.getResponse();
        HttpMethod method = exchange.getRequest().getMethod();
        if (!HttpMethod.GET.equals(method) && !HttpMethod.HEAD.equals(method)) {
            response.setStatusCode(HttpStatus.METHOD_NOT_ALLOWED);
            response.getHeaders().set(HttpHeaders.ALLOW, ALLOWED_METHODS);
            return response.setComplete();
        }
        return Mono.fromCallable(() -> regularFile(file))
                .subscribeOn(FilePool.SCHEDULER)
                .flatMap(attributes -> attributes.isPresent()
                        ? respond(exchange, file, attributes.get(), options)
                        : notFound(response));
    }

    /** The file's attributes, or none if there is no regular file to serve. */
    private static Optional<BasicFileAttributes> regularFile(Path file) throws IOException {
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            return attributes.isRegularFile() ? Optional.of(attributes) : Optional.empty();
        } catch (NoSuchFileException | NotDirectoryException missing) {
            return Optional.empty();
        }
    }

    /** The file pool as a Reactor scheduler, made on first use (so a bad pool setting fails the call, not class loading). */
    private static final class FilePool {
        static final Scheduler SCHEDULER = Schedulers.fromExecutor(IoExecutors.files());
    }

    private static Mono<Void> notFound(ServerHttpResponse response) {
        response.setStatusCode(HttpStatus.NOT_FOUND);
        return response.setComplete();
    }

    private static Mono<Void> respond(
            ServerWebExchange exchange, Path file, BasicFileAttributes attributes, Options options) {
        long size = attributes.size();
        Instant lastModified = attributes.lastModifiedTime().toInstant().truncatedTo(ChronoUnit.SECONDS);
        String etag = "\"" + Long.toHexString(size) + "-"
                + Long.toHexString(attributes.lastModifiedTime().toMillis()) + "\"";
        ServerHttpResponse response = exchange.getResponse();
        HttpHeaders headers = response.getHeaders();
        headers.setETag(etag);
        headers.setLastModified(lastModified);
        if (!preconditionsHold(exchange.getRequest().getHeaders(), etag, lastModified)) {
            response.setStatusCode(HttpStatus.PRECONDITION_FAILED);
            return response.setComplete();
        }
        if (exchange.checkNotModified(etag, lastModified)) {
            return response.setComplete(); // 304, as Spring decides
        }
        headers.setContentType(options.contentType);
        headers.set("X-Content-Type-Options", "nosniff");
        headers.set(HttpHeaders.ACCEPT_RANGES, "bytes");
        if (options.attachmentName != null) {
            headers.setContentDisposition(ContentDisposition.attachment()
                    .filename(options.attachmentName, StandardCharsets.UTF_8)
                    .build());
        }
        long start = 0;
        long count = size;
        HttpRange range = singleRange(exchange.getRequest(), etag, lastModified);
        if (range != null) {
            if (size == 0 || !satisfiable(range, size)) {
                response.setStatusCode(HttpStatus.REQUESTED_RANGE_NOT_SATISFIABLE);
                headers.set(HttpHeaders.CONTENT_RANGE, "bytes */" + size);
                headers.setContentLength(0);
                return response.setComplete();
            }
            start = range.getRangeStart(size);
            count = range.getRangeEnd(size) - start + 1;
            response.setStatusCode(HttpStatus.PARTIAL_CONTENT);
            headers.set(HttpHeaders.CONTENT_RANGE, "bytes " + start + "-" + (start + count - 1) + "/" + size);
        }
        headers.setContentLength(count);
        if (HttpMethod.HEAD.equals(exchange.getRequest().getMethod()) || count == 0) {
            return response.setComplete();
        }
        if (options.zeroCopy && response instanceof ZeroCopyHttpOutputMessage zeroCopy) {
            return zeroCopy.writeWith(file, start, count);
        }
        ReadOptions reading = options.readOptions.withRange(start, count).withExactRange();
        return response.writeWith(DataBufferFiles.read(file, response.bufferFactory(), reading));
    }

    /**
     * RFC 9110 §13.1.1 and §13.1.4, which Spring's {@code checkNotModified} leaves to state-changing
     * methods: {@code If-Match} (strong comparison, {@code *} matches the file) and, without it,
     * {@code If-Unmodified-Since}.
     */
    private static boolean preconditionsHold(HttpHeaders request, String etag, Instant lastModified) {
        List<String> ifMatch = request.getIfMatch();
        if (!ifMatch.isEmpty()) {
            for (String tag : ifMatch) {
                for (String one : tag.split(",")) {
                    String candidate = one.trim();
                    if (candidate.equals("*") || candidate.equals(etag)) {
                        return true;
                    }
                }
            }
            return false;
        }
        long ifUnmodifiedSince;
        try {
            ifUnmodifiedSince = request.getIfUnmodifiedSince();
        } catch (IllegalArgumentException malformed) {
            return true; // an invalid date is ignored (§13.1.4)
        }
        return ifUnmodifiedSince < 0 || lastModified.toEpochMilli() <= ifUnmodifiedSince;
    }

    /**
     * The one range to serve, or {@code null} for the whole file: no {@code Range}, a malformed
     * one, several, or an {@code If-Range} that names another version.
     */
    private static HttpRange singleRange(ServerHttpRequest request, String etag, Instant lastModified) {
        List<HttpRange> ranges;
        try {
            ranges = request.getHeaders().getRange();
        } catch (IllegalArgumentException malformed) {
            return null;
        }
        if (ranges.size() != 1 || !ifRangeMatches(request.getHeaders(), etag, lastModified)) {
            return null;
        }
        return ranges.get(0);
    }

    /** RFC 9110 §13.1.5: a strong ETag equal to ours, or exactly our modification date. */
    private static boolean ifRangeMatches(HttpHeaders headers, String etag, Instant lastModified) {
        String ifRange = headers.getFirst(HttpHeaders.IF_RANGE);
        if (ifRange == null) {
            return true;
        }
        ifRange = ifRange.trim();
        if (ifRange.startsWith("\"") || ifRange.startsWith("W/")) {
            return ifRange.equals(etag);
        }
        try {
            HttpHeaders date = new HttpHeaders();
            date.set(HttpHeaders.IF_RANGE, ifRange);
            return date.getFirstDate(HttpHeaders.IF_RANGE) == lastModified.toEpochMilli();
        } catch (IllegalArgumentException malformed) {
            return false;
        }
    }

    private static boolean satisfiable(HttpRange range, long size) {
        try {
            long start = range.getRangeStart(size);
            return start < size && range.getRangeEnd(size) >= start;
        } catch (IllegalArgumentException beyond) {
            return false;
        }
    }

    /** How {@link FileResponses} serves a file; immutable. */
    public static final class Options {

        private static final Options DEFAULTS =
                new Options(MediaType.APPLICATION_OCTET_STREAM, null, true, ReadOptions.defaults());

        private final MediaType contentType;
        private final String attachmentName; // null: no Content-Disposition
        private final boolean zeroCopy;
        private final ReadOptions readOptions; // the pooled path's chunks; its range is the response's

        private Options(MediaType contentType, String attachmentName, boolean zeroCopy, ReadOptions readOptions) {
            this.contentType = contentType;
            this.attachmentName = attachmentName;
            this.zeroCopy = zeroCopy;
            this.readOptions = readOptions;
        }

        /**
         * {@code application/octet-stream}, inline, zero-copy where offered, 64 KiB pooled chunks
         * otherwise.
         *
         * @return the default options
         */
        public static Options defaults() {
            return DEFAULTS;
        }

        /**
         * A copy that sends {@code type} as the {@code Content-Type}; the caller vouches for it.
         *
         * @param type the content type
         * @return a copy with this type
         * @throws NullPointerException if {@code type} is {@code null}
         */
        public Options withContentType(MediaType type) {
            return new Options(Objects.requireNonNull(type, "type"), attachmentName, zeroCopy, readOptions);
        }

        /**
         * A copy that asks the client to save the body as {@code filename}
         * ({@code Content-Disposition: attachment}, encoded for any characters).
         *
         * @param filename the name to save under
         * @return a copy with this attachment name
         * @throws NullPointerException if {@code filename} is {@code null}
         */
        public Options withAttachment(String filename) {
            return new Options(contentType, Objects.requireNonNull(filename, "filename"), zeroCopy, readOptions);
        }

        /**
         * A copy that always sends pooled chunks, even where the server offers zero-copy: to keep
         * sluice's byte-bounded reads (and what its pools count) on every response.
         *
         * @return a copy without zero-copy
         */
        public Options withoutZeroCopy() {
            return new Options(contentType, attachmentName, false, readOptions);
        }

        /**
         * A copy whose pooled path reads with {@code options}' chunk size, pool and executor (its
         * range is replaced by the response's).
         *
         * @param options how the pooled path reads
         * @return a copy with these read options
         * @throws NullPointerException if {@code options} is {@code null}
         */
        public Options withReadOptions(ReadOptions options) {
            return new Options(contentType, attachmentName, zeroCopy, Objects.requireNonNull(options, "options"));
        }

        @Override
        public String toString() {
            return "FileResponses.Options[" + contentType + (attachmentName != null ? ", attachment" : "")
                    + (zeroCopy ? ", zero-copy" : ", pooled") + ", " + readOptions + "]";
        }
    }
}
