package io.sluice.spring;

import io.netty.buffer.PooledByteBufAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.core.io.buffer.NettyDataBuffer;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.codec.multipart.FilePart;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.http.server.reactive.MockServerHttpResponse;
import org.springframework.mock.web.server.MockServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.sluice.spring.DataBufferFilesWriteTest.random;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The documented controller, and FileParts as a drop-in for FilePart.transferTo. */
class FileControllerTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private static final String ID = "00000000-0000-0000-0000-000000000001";

    private final NettyDataBufferFactory netty = new NettyDataBufferFactory(PooledByteBufAllocator.DEFAULT);

    @TempDir
    Path uploads;

    @Test
    void aMultipartUploadComesBackByteForByte() throws Exception {
        byte[] content = random(700_001, 21);
        TrackedBuffers buffers = new TrackedBuffers(content, 8192, null);
        FileController controller = new FileController(uploads);

        String id = controller
                .uploadPart(new FakeFilePart("photo.jpg", buffers.flux()))
                .block(WAIT);

        assertArrayEquals(content, Files.readAllBytes(uploads.resolve(id)));
        buffers.awaitAllReleased();
        assertEquals(Collections.nCopies(buffers.createdCount(), 1), buffers.releaseCounts());
        assertArrayEquals(content, download(controller, id, netty));
    }

    @Test
    void aRawUploadComesBackByteForByte() throws Exception {
        byte[] content = random(100_000, 22);
        TrackedBuffers buffers = new TrackedBuffers(content, 1000, null);
        FileController controller = new FileController(uploads);

        String id = controller.uploadBody(buffers.flux()).block(WAIT);

        buffers.awaitAllReleased();
        assertArrayEquals(content, download(controller, id, netty));
    }

    @Test
    void transferToWritesLikeFilePartDoesAndNamesBadArguments() throws Exception {
        Path dest = uploads.resolve("dest");
        Files.write(dest, random(50, 1)); // longer than the part: truncated, as transferTo does
        FakeFilePart part = new FakeFilePart("a.txt", new TrackedBuffers(new byte[] {1, 2, 3}, 2, null).flux());

        FileParts.transferTo(part, dest).block(WAIT);

        assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(dest));
        assertEquals(
                "part",
                assertThrows(NullPointerException.class, () -> FileParts.transferTo(null, dest))
                        .getMessage());
        assertEquals(
                "dest",
                assertThrows(NullPointerException.class, () -> FileParts.transferTo(part, null))
                        .getMessage());
        assertThrows(
                RuntimeException.class,
                () -> FileParts.transferTo(part, uploads).block(WAIT),
                "a directory as destination fails the transfer");
    }

    @Test
    void aDownloadHasTheResponsesKindOfBuffer() throws Exception {
        byte[] content = random(200_000, 23);
        Files.write(uploads.resolve(ID), content);
        FileController controller = new FileController(uploads);

        List<DataBuffer> viaNetty = downloadedBuffers(controller, ID, netty);
        List<DataBuffer> viaOther = downloadedBuffers(controller, ID, DefaultDataBufferFactory.sharedInstance);

        assertTrue(
                viaNetty.stream().allMatch(NettyDataBuffer.class::isInstance), "Reactor Netty sends these as they are");
        assertTrue(viaOther.stream().noneMatch(NettyDataBuffer.class::isInstance));
        assertArrayEquals(
                content,
                DataBufferUtils.join(Flux.fromIterable(viaNetty))
                        .map(FileControllerTest::bytes)
                        .block(WAIT));
        assertArrayEquals(
                content,
                DataBufferUtils.join(Flux.fromIterable(viaOther))
                        .map(FileControllerTest::bytes)
                        .block(WAIT));
    }

    /** The body of a GET the controller answers, as a response with {@code factory} receives it. */
    private static byte[] download(FileController controller, String id, DataBufferFactory factory) {
        return DataBufferUtils.join(Flux.fromIterable(downloadedBuffers(controller, id, factory)))
                .map(FileControllerTest::bytes)
                .block(WAIT);
    }

    /** The buffers a response with {@code factory} (no zero-copy, as in a test server) is handed. */
    private static List<DataBuffer> downloadedBuffers(FileController controller, String id, DataBufferFactory factory) {
        MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.get("/files/" + id));
        MockServerHttpResponse response = new MockServerHttpResponse(factory);
        List<DataBuffer> received = new CopyOnWriteArrayList<>();
        response.setWriteHandler(body -> body.doOnNext(received::add).then());
        controller
                .download(UUID.fromString(id), new FileResponsesTest.ResponseSwap(exchange, response))
                .block(WAIT);
        assertEquals(null, response.getStatusCode(), "200 OK, left as the default");
        return received;
    }

    private static byte[] bytes(DataBuffer buffer) {
        byte[] bytes = new byte[buffer.readableByteCount()];
        buffer.read(bytes);
        DataBufferUtils.release(buffer);
        return bytes;
    }

    /** A multipart file part as WebFlux's parser hands it over: a name and a stream of buffers. */
    private record FakeFilePart(String filename, Flux<DataBuffer> content) implements FilePart {

        @Override
        public Mono<Void> transferTo(Path dest) {
            return Mono.error(new AssertionError("the test uses FileParts.transferTo"));
        }

        @Override
        public String name() {
            return "file";
        }

        @Override
        public HttpHeaders headers() {
            return HttpHeaders.EMPTY;
        }
    }
}
