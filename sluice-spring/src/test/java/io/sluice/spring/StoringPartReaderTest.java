package io.sluice.spring;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.sluice.WriteMode;
import io.sluice.WriteOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.core.ResolvableType;
import org.springframework.core.codec.DecodingException;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.NettyDataBuffer;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.client.MultipartBodyBuilder;
import org.springframework.http.codec.multipart.FilePart;
import org.springframework.http.codec.multipart.FormFieldPart;
import org.springframework.http.codec.multipart.MultipartHttpMessageReader;
import org.springframework.http.codec.multipart.MultipartHttpMessageWriter;
import org.springframework.http.codec.multipart.Part;
import org.springframework.mock.http.client.reactive.MockClientHttpRequest;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.util.MultiValueMap;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The multipart reader that stores file parts through sluice: parts come back byte for byte, the
 * first transfer moves the stored file, Spring's limits hold, every buffer of the body is released
 * once, and no stored file outlives a read that fails.
 */
@ExtendWith(ParanoidLeakDetection.class)
class StoringPartReaderTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final ResolvableType PART = ResolvableType.forClass(Part.class);

    private final NettyDataBufferFactory netty = new NettyDataBufferFactory(PooledByteBufAllocator.DEFAULT);
    private final List<ByteBuf> bodyBuffers = Collections.synchronizedList(new ArrayList<>());

    @TempDir
    Path storage;

    @TempDir
    Path uploads;

    @Test
    void aFormsFieldsAndFilesComeBackAndTheFirstTransferMovesTheStoredFile() throws Exception {
        byte[] photo = random(3 * 1024 * 1024 + 17, 1);
        byte[] notes = random(10_000, 2);
        StoringPartReader reader = new StoringPartReader(storage, WriteOptions.defaults());

        List<Part> parts = reader.read(PART, request(form(photo, notes), 8192), Map.of())
                .collectList()
                .block(WAIT);

        assertEquals(
                List.of("title", "photo", "notes"),
                parts.stream().map(Part::name).toList());
        assertEquals("a title", ((FormFieldPart) parts.get(0)).value());
        FilePart stored = (FilePart) parts.get(1);
        assertEquals("photo.bin", stored.filename());
        assertEquals(2, storedFiles().size(), "each file part in a file of its own");
        Path dest = uploads.resolve("photo");
        Files.write(dest, new byte[] {9, 9}); // replaced, as transferTo replaces

        stored.transferTo(dest).block(WAIT);

        assertArrayEquals(photo, Files.readAllBytes(dest));
        assertEquals(1, storedFiles().size(), "the stored file was moved, not copied");
        assertArrayEquals(
                photo,
                DataBufferUtils.join(stored.content())
                        .map(StoringPartReaderTest::bytes)
                        .block(WAIT),
                "content() reads the part where it is now");
        Path again = uploads.resolve("again");
        stored.transferTo(again).block(WAIT);
        assertArrayEquals(photo, Files.readAllBytes(again), "a later transfer copies");
        stored.delete().block(WAIT);
        assertTrue(Files.exists(dest), "delete() leaves the handler's moved file alone");
        FilePart unmoved = (FilePart) parts.get(2);
        assertArrayEquals(
                notes,
                DataBufferUtils.join(unmoved.content())
                        .map(StoringPartReaderTest::bytes)
                        .block(WAIT));
        unmoved.delete().block(WAIT);
        assertEquals(List.of(), storedFiles(), "delete() removes a part never transferred");
        assertAllBodyBuffersReleased();
    }

    @Test
    void theMultipartDataAControllerSeesIsTheFormStoredBySluice() throws Exception {
        byte[] photo = random(700_001, 3);
        MultipartHttpMessageReader multipart =
                new MultipartHttpMessageReader(new StoringPartReader(storage, WriteOptions.defaults()));

        MultiValueMap<String, Part> data = multipart
                .readMono(
                        ResolvableType.forClassWithGenerics(MultiValueMap.class, String.class, Part.class),
                        request(form(photo, new byte[0]), 4096),
                        Map.of())
                .block(WAIT);

        FilePart part = (FilePart) data.getFirst("photo");
        part.transferTo(uploads.resolve("photo")).block(WAIT);
        assertArrayEquals(photo, Files.readAllBytes(uploads.resolve("photo")));
        List<Path> left = storedFiles();
        assertEquals(1, left.size(), "the notes part, never transferred: " + left);
        assertEquals(0, Files.size(left.get(0)), "an empty file part gives an empty file");
        assertTrue(data.getFirst("notes") instanceof FilePart, "an empty file part is a file part");
        assertAllBodyBuffersReleased();
    }

    @Test
    void aFormWithTooManyPartsFailsAndLeavesNoStoredFile() throws Exception {
        StoringPartReader reader = new StoringPartReader(storage, WriteOptions.defaults());
        reader.setMaxParts(2);

        Flux<Part> parts = reader.read(PART, request(form(random(100_000, 4), random(10, 5)), 8192), Map.of());

        DecodingException refused =
                assertThrows(DecodingException.class, () -> parts.collectList().block(WAIT));
        assertTrue(refused.getMessage().contains("2"), refused.getMessage());
        awaitNoStoredFile();
        assertAllBodyBuffersReleased();
    }

    @Test
    void aPartLargerThanAllowedFailsAndLeavesNoStoredFile() throws Exception {
        StoringPartReader reader = new StoringPartReader(storage, WriteOptions.defaults());
        reader.setMaxPartSize(50_000);

        Flux<Part> parts = reader.read(PART, request(form(random(200_000, 6), random(10, 7)), 8192), Map.of());

        assertThrows(DataBufferLimitException.class, () -> parts.collectList().block(WAIT));
        awaitNoStoredFile();
        assertAllBodyBuffersReleased();
    }

    @Test
    void anUploadThatBreaksOffDeletesEveryFileItStored() throws Exception {
        byte[] body = form(random(300_000, 8), random(300_000, 9));
        StoringPartReader reader = new StoringPartReader(storage, WriteOptions.defaults());
        int cut = body.length - 100_000; // within the second file part
        MockServerHttpRequest broken = MockServerHttpRequest.post("/upload")
                .contentType(contentType)
                .body(chunks(body, 8192, cut).concatWith(Flux.error(new IOException("connection reset"))));

        IOException failure = assertThrows(IOException.class, () -> {
            try {
                reader.read(PART, broken, Map.of()).collectList().block(WAIT);
            } catch (RuntimeException e) {
                throw (IOException) e.getCause();
            }
        });

        assertEquals("connection reset", failure.getMessage());
        awaitNoStoredFile();
        assertAllBodyBuffersReleased();
    }

    @Test
    void aCancelledReadDeletesThePartBeingWrittenAndLeavesThoseEmittedToTheirConsumer() throws Exception {
        byte[] photo = random(200_000, 10);
        byte[] body = form(photo, random(300_000, 11));
        StoringPartReader reader = new StoringPartReader(storage, WriteOptions.defaults());
        MockServerHttpRequest stalled = MockServerHttpRequest.post("/upload")
                .contentType(contentType)
                .body(chunks(body, 8192, body.length - 100_000).concatWith(Flux.never())); // within the notes

        List<Part> taken = Collections.synchronizedList(new ArrayList<>());
        Disposable read = reader.read(PART, stalled, Map.of()).subscribe(taken::add);
        long deadline = System.nanoTime() + WAIT.toNanos();
        while ((taken.size() < 2 || storedFiles().size() < 2) && System.nanoTime() < deadline) {
            Thread.sleep(10); // the photo emitted, the notes being written
        }
        assertEquals(2, storedFiles().size(), "the photo stored and the notes being written");

        read.dispose();

        assertEquals(List.of("title", "photo"), taken.stream().map(Part::name).toList());
        while (storedFiles().size() > 1 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(1, storedFiles().size(), "only the photo's file is left: " + storedFiles());
        ((FilePart) taken.get(1)).transferTo(uploads.resolve("photo")).block(WAIT);
        assertArrayEquals(photo, Files.readAllBytes(uploads.resolve("photo")), "the emitted part is whole");
        assertAllBodyBuffersReleased();
    }

    @Test
    void filePartsTransferMovesAStoredPartAtomicallyAndWritesItsContentToAppend() throws Exception {
        byte[] photo = random(500_000, 12);
        byte[] notes = random(1000, 13);
        List<Part> parts = new StoringPartReader(storage, WriteOptions.defaults())
                .read(PART, request(form(photo, notes), 8192), Map.of())
                .collectList()
                .block(WAIT);
        Path dest = uploads.resolve("photo");
        Files.write(dest, new byte[] {1});

        FileParts.transferTo(
                        (FilePart) parts.get(1), dest, WriteOptions.defaults().withAtomicReplace())
                .block(WAIT);

        assertArrayEquals(photo, Files.readAllBytes(dest));
        assertEquals(1, storedFiles().size(), "moved, not written again");
        Path log = uploads.resolve("log");
        Files.write(log, new byte[] {7});
        FileParts.transferTo((FilePart) parts.get(2), log, WriteOptions.append())
                .block(WAIT);
        byte[] appended = Files.readAllBytes(log);
        assertEquals(1 + notes.length, appended.length, "appended to what was there");
        assertArrayEquals(notes, Arrays.copyOfRange(appended, 1, appended.length));
        assertEquals(1, storedFiles().size(), "an append reads the stored file and leaves it to delete()");
        parts.get(2).delete().block(WAIT);
        assertEquals(List.of(), storedFiles());
        assertAllBodyBuffersReleased();
    }

    @Test
    void anApplicationsPartWriterWritesEveryFilePartToANewFile() throws Exception {
        byte[] photo = random(400_000, 14);
        byte[] notes = random(5_000, 15);
        List<Path> written = Collections.synchronizedList(new ArrayList<>());
        StoringPartReader reader = new StoringPartReader(storage, (content, file) -> {
            written.add(file);
            return DataBufferFiles.write(content, file, WriteOptions.defaults().withMode(WriteMode.CREATE_NEW));
        });

        List<Part> parts = reader.read(PART, request(form(photo, notes), 8192), Map.of())
                .collectList()
                .block(WAIT);

        assertEquals(2, written.size(), "one write per file part, none for the field");
        assertTrue(written.stream().allMatch(file -> storage.equals(file.getParent())), "in the storage directory");
        assertArrayEquals(photo, Files.readAllBytes(written.get(0)));
        assertArrayEquals(notes, Files.readAllBytes(written.get(1)));
        ((FilePart) parts.get(1)).transferTo(uploads.resolve("photo")).block(WAIT);
        assertArrayEquals(photo, Files.readAllBytes(uploads.resolve("photo")));
        parts.get(2).delete().block(WAIT);
        assertAllBodyBuffersReleased();
    }

    @Test
    void aPartWriterThatFailsFailsTheReadWithItsErrorAndLeavesNoStoredFile() throws Exception {
        StoringPartReader reader = new StoringPartReader(
                storage,
                (content, file) -> DataBufferFiles.write(
                                content, file, WriteOptions.defaults().withMode(WriteMode.CREATE_NEW))
                        .then(Mono.error(new IOException("quota exceeded"))));

        Flux<Part> parts = reader.read(PART, request(form(random(300_000, 16), random(10, 17)), 8192), Map.of());

        IOException failure = assertThrows(IOException.class, () -> {
            try {
                parts.collectList().block(WAIT);
            } catch (RuntimeException e) {
                throw (IOException) e.getCause();
            }
        });
        assertEquals("quota exceeded", failure.getMessage());
        awaitNoStoredFile();
        assertAllBodyBuffersReleased();
    }

    @Test
    void aFormReadAsOnePartIsRefusedByName() {
        StoringPartReader reader = new StoringPartReader(storage, WriteOptions.defaults());

        UnsupportedOperationException refused = assertThrows(
                UnsupportedOperationException.class,
                () -> reader.readMono(PART, MockServerHttpRequest.post("/").build(), Map.of())
                        .block(WAIT));

        assertTrue(refused.getMessage().contains("Flux<Part>"), refused.getMessage());
        assertTrue(reader.canRead(PART, MediaType.MULTIPART_FORM_DATA));
        assertTrue(!reader.canRead(PART, MediaType.APPLICATION_JSON));
    }

    // ---- the form, encoded by Spring's own writer ----

    private MediaType contentType;

    private byte[] form(byte[] photo, byte[] notes) {
        MultipartBodyBuilder builder = new MultipartBodyBuilder();
        builder.part("title", "a title");
        builder.part("photo", new ByteArrayResource(photo))
                .filename("photo.bin")
                .contentType(MediaType.APPLICATION_OCTET_STREAM);
        builder.part("notes", new ByteArrayResource(notes))
                .filename("notes.txt")
                .contentType(MediaType.TEXT_PLAIN);
        MockClientHttpRequest request = new MockClientHttpRequest(HttpMethod.POST, URI.create("/upload"));
        new MultipartHttpMessageWriter()
                .write(
                        Flux.just(builder.build()),
                        ResolvableType.forClass(MultiValueMap.class),
                        MediaType.MULTIPART_FORM_DATA,
                        request,
                        Map.of())
                .block(WAIT);
        contentType = request.getHeaders().getContentType();
        return DataBufferUtils.join(request.getBody())
                .map(StoringPartReaderTest::bytes)
                .block(WAIT);
    }

    /** The body as pooled Netty buffers of {@code chunkBytes}, each recorded to check its release. */
    private MockServerHttpRequest request(byte[] body, int chunkBytes) {
        return MockServerHttpRequest.post("/upload")
                .contentType(contentType)
                .body(chunks(body, chunkBytes, body.length));
    }

    private Flux<DataBuffer> chunks(byte[] body, int chunkBytes, int upTo) {
        return Flux.range(0, (upTo + chunkBytes - 1) / chunkBytes).map(index -> {
            int start = index * chunkBytes;
            int length = Math.min(chunkBytes, upTo - start);
            DataBuffer buffer = netty.allocateBuffer(length);
            buffer.write(body, start, length);
            bodyBuffers.add(((NettyDataBuffer) buffer).getNativeBuffer());
            return buffer;
        });
    }

    private void assertAllBodyBuffersReleased() throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (bodyBuffers.stream().anyMatch(buffer -> buffer.refCnt() != 0) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(bodyBuffers.size() > 1, "the body came in buffers");
        assertEquals(
                List.of(),
                bodyBuffers.stream().filter(buffer -> buffer.refCnt() != 0).toList(),
                "body buffers not released");
    }

    private List<Path> storedFiles() throws IOException {
        try (Stream<Path> files = Files.list(storage)) {
            return files.toList();
        }
    }

    private void awaitNoStoredFile() throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!storedFiles().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(List.of(), storedFiles(), "stored files left behind");
    }

    private static byte[] bytes(DataBuffer buffer) {
        byte[] bytes = new byte[buffer.readableByteCount()];
        buffer.read(bytes);
        DataBufferUtils.release(buffer);
        return bytes;
    }

    private static byte[] random(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }
}
