package io.sluice.spring;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ZeroCopyHttpOutputMessage;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.http.server.reactive.MockServerHttpResponse;
import org.springframework.mock.web.server.MockServerWebExchange;
import reactor.core.publisher.Mono;

import java.io.EOFException;
import java.io.File;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static io.sluice.spring.DataBufferFilesWriteTest.random;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A file as a response: headers, ranges, conditional requests, HEAD, 404, and both body paths. */
class FileResponsesTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private final byte[] content = random(300_000, 11);

    @Test
    void aGetIsTheWholeFileAsOctetStreamWithLengthValidatorsAndNoSniffing() throws Exception {
        Path file = Files.write(dir.resolve("page.html"), content);
        MockServerWebExchange exchange = get(file, request -> request.header(HttpHeaders.ACCEPT, "text/html"));
        MockServerHttpResponse response = exchange.getResponse();
        assertEquals(HttpStatus.OK, status(response));
        HttpHeaders headers = response.getHeaders();
        assertEquals(MediaType.APPLICATION_OCTET_STREAM, headers.getContentType(), "never negotiated from Accept");
        assertEquals("nosniff", headers.getFirst("X-Content-Type-Options"));
        assertEquals(content.length, headers.getContentLength());
        assertEquals("bytes", headers.getFirst(HttpHeaders.ACCEPT_RANGES));
        assertTrue(headers.getETag() != null && headers.getETag().startsWith("\""), headers.getETag());
        assertTrue(headers.getLastModified() > 0);
        assertArrayEquals(content, body(response));
    }

    @Test
    void theCallerNamesTheTypeAndAnAttachment() throws Exception {
        Path file = Files.write(dir.resolve("report"), content);
        MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.get("/f"));
        FileResponses.write(
                        exchange,
                        file,
                        FileResponses.Options.defaults()
                                .withContentType(MediaType.APPLICATION_PDF)
                                .withAttachment("report é.pdf"))
                .block(WAIT);
        HttpHeaders headers = exchange.getResponse().getHeaders();
        assertEquals(MediaType.APPLICATION_PDF, headers.getContentType());
        assertTrue(headers.getContentDisposition().isAttachment());
        assertEquals("report é.pdf", headers.getContentDisposition().getFilename());
    }

    @Test
    void oneRangeIsPartialContent() throws Exception {
        Path file = Files.write(dir.resolve("f"), content);
        for (String[] rangeAndBytes : new String[][] {
            {"bytes=10-19", "10", "19"},
            {"bytes=-5", "299995", "299999"},
            {"bytes=299990-", "299990", "299999"},
            {"bytes=299990-400000", "299990", "299999"}
        }) {
            MockServerWebExchange exchange = get(file, request -> request.header(HttpHeaders.RANGE, rangeAndBytes[0]));
            MockServerHttpResponse response = exchange.getResponse();
            int first = Integer.parseInt(rangeAndBytes[1]);
            int last = Integer.parseInt(rangeAndBytes[2]);
            assertEquals(HttpStatus.PARTIAL_CONTENT, status(response), rangeAndBytes[0]);
            assertEquals(
                    "bytes " + first + "-" + last + "/" + content.length,
                    response.getHeaders().getFirst(HttpHeaders.CONTENT_RANGE));
            assertEquals(last - first + 1, response.getHeaders().getContentLength());
            assertArrayEquals(Arrays.copyOfRange(content, first, last + 1), body(response), rangeAndBytes[0]);
        }
    }

    @Test
    void aRangeBeyondTheEndIs416AndSeveralRangesOrAMalformedOneGetTheWholeFile() throws Exception {
        Path file = Files.write(dir.resolve("f"), content);
        MockServerHttpResponse beyond = get(file, request -> request.header(HttpHeaders.RANGE, "bytes=300000-"))
                .getResponse();
        assertEquals(HttpStatus.REQUESTED_RANGE_NOT_SATISFIABLE, status(beyond));
        assertEquals("bytes */" + content.length, beyond.getHeaders().getFirst(HttpHeaders.CONTENT_RANGE));

        Path empty = Files.write(dir.resolve("empty"), new byte[0]);
        assertEquals(
                HttpStatus.REQUESTED_RANGE_NOT_SATISFIABLE,
                status(get(empty, request -> request.header(HttpHeaders.RANGE, "bytes=0-"))
                        .getResponse()));

        for (String header : List.of("bytes=0-9,20-29", "pages=1-2", "bytes=9-1")) {
            MockServerHttpResponse whole = get(file, request -> request.header(HttpHeaders.RANGE, header))
                    .getResponse();
            assertEquals(HttpStatus.OK, status(whole), header);
            assertArrayEquals(content, body(whole), header);
        }
    }

    @Test
    void conditionalRequestsAnswer304And412AndAStaleIfRangeGetsTheWholeFile() throws Exception {
        Path file = Files.write(dir.resolve("f"), content);
        HttpHeaders first = get(file, request -> {}).getResponse().getHeaders();
        String etag = first.getETag();
        String lastModified = DateTimeFormatter.RFC_1123_DATE_TIME.format(
                ZonedDateTime.ofInstant(Instant.ofEpochMilli(first.getLastModified()), ZoneOffset.UTC));

        assertEquals(
                HttpStatus.NOT_MODIFIED,
                status(get(file, request -> request.header(HttpHeaders.IF_NONE_MATCH, etag))
                        .getResponse()));
        assertEquals(
                HttpStatus.NOT_MODIFIED,
                status(get(file, request -> request.header(HttpHeaders.IF_MODIFIED_SINCE, lastModified))
                        .getResponse()));
        assertEquals(
                HttpStatus.PRECONDITION_FAILED,
                status(get(file, request -> request.header(HttpHeaders.IF_MATCH, "\"other\""))
                        .getResponse()));
        assertEquals(
                HttpStatus.OK,
                status(get(file, request -> request.header(HttpHeaders.IF_MATCH, etag))
                        .getResponse()));
        assertEquals(
                HttpStatus.PRECONDITION_FAILED,
                status(get(
                                file,
                                request -> request.header(
                                        HttpHeaders.IF_UNMODIFIED_SINCE, "Mon, 01 Jan 2001 00:00:00 GMT"))
                        .getResponse()));

        MockServerHttpResponse current = get(
                        file,
                        request ->
                                request.header(HttpHeaders.RANGE, "bytes=0-9").header(HttpHeaders.IF_RANGE, etag))
                .getResponse();
        assertEquals(HttpStatus.PARTIAL_CONTENT, status(current));
        MockServerHttpResponse stale = get(
                        file,
                        request -> request.header(HttpHeaders.RANGE, "bytes=0-9")
                                .header(HttpHeaders.IF_RANGE, "\"stale\""))
                .getResponse();
        assertEquals(HttpStatus.OK, status(stale));
        assertArrayEquals(content, body(stale));
    }

    @Test
    void headIsTheHeadersOnlyAndOtherMethodsAre405() throws Exception {
        Path file = Files.write(dir.resolve("f"), content);
        MockServerWebExchange head = MockServerWebExchange.from(MockServerHttpRequest.head("/f"));
        FileResponses.write(head, file).block(WAIT);
        assertEquals(content.length, head.getResponse().getHeaders().getContentLength());
        assertArrayEquals(new byte[0], body(head.getResponse()));

        MockServerWebExchange post = MockServerWebExchange.from(MockServerHttpRequest.method(HttpMethod.POST, "/f"));
        FileResponses.write(post, file).block(WAIT);
        assertEquals(HttpStatus.METHOD_NOT_ALLOWED, status(post.getResponse()));
        assertEquals("GET, HEAD", post.getResponse().getHeaders().getFirst(HttpHeaders.ALLOW));
    }

    @Test
    void aMissingFileOrADirectoryIs404() throws Exception {
        assertEquals(
                HttpStatus.NOT_FOUND,
                status(get(dir.resolve("missing"), request -> {}).getResponse()));
        assertEquals(
                HttpStatus.NOT_FOUND,
                status(get(Files.createDirectory(dir.resolve("d")), request -> {})
                        .getResponse()));
    }

    @Test
    void whereTheServerOffersZeroCopyTheFileRegionIsHandedOver() throws Exception {
        Path file = Files.write(dir.resolve("f"), content);
        ZeroCopyResponse response = new ZeroCopyResponse();
        MockServerWebExchange exchange = MockServerWebExchange.builder(MockServerHttpRequest.get("/f")
                        .header(HttpHeaders.RANGE, "bytes=100-199")
                        .build())
                .build();
        FileResponses.write(new ResponseSwap(exchange, response), file).block(WAIT);
        assertEquals(List.of(file + "@100+100"), response.regions);

        ZeroCopyResponse pooled = new ZeroCopyResponse();
        FileResponses.write(
                        new ResponseSwap(MockServerWebExchange.from(MockServerHttpRequest.get("/f")), pooled),
                        file,
                        FileResponses.Options.defaults().withoutZeroCopy())
                .block(WAIT);
        assertEquals(List.of(), pooled.regions);
        assertArrayEquals(content, body(pooled));
    }

    @Test
    void aFileThatShrankSinceItsLengthWasSentFailsTheBody() throws Exception {
        Path file = Files.write(dir.resolve("f"), content);
        MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.get("/f"));
        AtomicReference<Throwable> failure = new AtomicReference<>();
        ShrinkingResponse response = new ShrinkingResponse(file);
        Throwable thrown = assertThrows(
                RuntimeException.class,
                () -> FileResponses.write(new ResponseSwap(exchange, response), file)
                        .block(WAIT));
        failure.set(thrown.getCause() != null ? thrown.getCause() : thrown);
        assertInstanceOf(EOFException.class, failure.get());
        assertEquals(content.length, response.getHeaders().getContentLength());
    }

    private MockServerWebExchange get(
            Path file, java.util.function.Consumer<MockServerHttpRequest.BaseBuilder<?>> headers) {
        MockServerHttpRequest.BaseBuilder<?> request = MockServerHttpRequest.get("/f");
        headers.accept(request);
        MockServerWebExchange exchange = MockServerWebExchange.from(request.build());
        FileResponses.write(exchange, file).block(WAIT);
        return exchange;
    }

    private static HttpStatus status(MockServerHttpResponse response) {
        return response.getStatusCode() == null
                ? HttpStatus.OK
                : HttpStatus.valueOf(response.getStatusCode().value());
    }

    private static byte[] body(MockServerHttpResponse response) {
        return DataBufferUtils.join(response.getBody())
                .map(buffer -> {
                    byte[] bytes = new byte[buffer.readableByteCount()];
                    buffer.read(bytes);
                    DataBufferUtils.release(buffer);
                    return bytes;
                })
                .defaultIfEmpty(new byte[0])
                .block(WAIT);
    }

    /** A response that offers zero-copy and records the regions it is handed. */
    static final class ZeroCopyResponse extends MockServerHttpResponse implements ZeroCopyHttpOutputMessage {
        final List<String> regions = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override
        public Mono<Void> writeWith(Path file, long position, long count) {
            regions.add(file + "@" + position + "+" + count);
            return setComplete();
        }

        @Override
        public Mono<Void> writeWith(File file, long position, long count) {
            return writeWith(file.toPath(), position, count);
        }
    }

    /** A response that truncates the file once the headers are sent, before the body is read. */
    static final class ShrinkingResponse extends MockServerHttpResponse {
        ShrinkingResponse(Path file) {
            setWriteHandler(body -> {
                try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                    channel.truncate(1000);
                } catch (IOException e) {
                    return Mono.error(e);
                }
                return body.doOnNext(DataBufferUtils::release).then();
            });
        }
    }

    /** The exchange with another response in it. */
    static final class ResponseSwap extends org.springframework.web.server.ServerWebExchangeDecorator {
        private final MockServerHttpResponse response;

        ResponseSwap(org.springframework.web.server.ServerWebExchange delegate, MockServerHttpResponse response) {
            super(delegate);
            this.response = response;
        }

        @Override
        public MockServerHttpResponse getResponse() {
            return response;
        }
    }
}
