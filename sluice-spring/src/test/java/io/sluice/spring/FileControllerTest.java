package io.sluice.spring;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.codec.multipart.FilePart;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;

import static io.sluice.spring.DataBufferFilesWriteTest.random;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The documented controller, and FileParts as a drop-in for FilePart.transferTo. */
class FileControllerTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path uploads;

    @Test
    void aMultipartUploadComesBackByteForByte() throws Exception {
        byte[] content = random(700_001, 21);
        TrackedBuffers buffers = new TrackedBuffers(content, 8192, null);
        FileController controller = new FileController(uploads);

        String id = controller.uploadPart(new FakeFilePart("photo.jpg", buffers.flux())).block(WAIT);

        assertArrayEquals(content, Files.readAllBytes(uploads.resolve(id)));
        buffers.awaitAllReleased();
        assertEquals(Collections.nCopies(buffers.createdCount(), 1), buffers.releaseCounts());
        assertArrayEquals(content, DataBufferUtils.join(controller.download(id)).map(FileControllerTest::bytes).block(WAIT));
    }

    @Test
    void aRawUploadComesBackByteForByte() throws Exception {
        byte[] content = random(100_000, 22);
        TrackedBuffers buffers = new TrackedBuffers(content, 1000, null);
        FileController controller = new FileController(uploads);

        String id = controller.uploadBody(buffers.flux()).block(WAIT);

        buffers.awaitAllReleased();
        assertArrayEquals(content, DataBufferUtils.join(controller.download(id)).map(FileControllerTest::bytes).block(WAIT));
    }

    @Test
    void transferToWritesLikeFilePartDoesAndNamesBadArguments() throws Exception {
        Path dest = uploads.resolve("dest");
        Files.write(dest, random(50, 1));                  // longer than the part: truncated, as transferTo does
        FakeFilePart part = new FakeFilePart("a.txt", new TrackedBuffers(new byte[]{1, 2, 3}, 2, null).flux());

        FileParts.transferTo(part, dest).block(WAIT);

        assertArrayEquals(new byte[]{1, 2, 3}, Files.readAllBytes(dest));
        assertEquals("part", assertThrows(NullPointerException.class, () -> FileParts.transferTo(null, dest)).getMessage());
        assertEquals("path", assertThrows(NullPointerException.class, () -> FileParts.transferTo(part, null)).getMessage());
        assertThrows(RuntimeException.class, () -> FileParts.transferTo(part, uploads).block(WAIT),
                "a directory as destination fails the transfer");
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
