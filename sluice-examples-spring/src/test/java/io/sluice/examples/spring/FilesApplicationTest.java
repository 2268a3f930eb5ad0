package io.sluice.examples.spring;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelOption;
import io.sluice.ChunkPool;
import io.sluice.ReadOptions;
import io.sluice.examples.spring.FilesClient.Answer;
import io.sluice.examples.spring.FilesClient.Stored;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.http.codec.HttpMessageReader;
import org.springframework.http.codec.multipart.DefaultPartHttpMessageReader;
import org.springframework.http.codec.multipart.Part;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The application on Reactor Netty, on a random port, driven over loopback by real clients; each
 * test ends with {@link LeakReports}' check (Netty's detector at PARANOID), and every download
 * of sluice's variant with its chunk pool whole again. Each test runs against both variants,
 * {@code spring} and {@code sluice}.
 */
@ExtendWith(LeakReports.class)
@SpringBootTest(classes = FilesApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Import(FinishedExchanges.class)
class FilesApplicationTest {

    static final Path STORAGE = TestFiles.directory("storage");

    @DynamicPropertySource
    static void storage(DynamicPropertyRegistry properties) {
        properties.add("sluice.storage", STORAGE::toString);
    }

    @LocalServerPort
    int port;

    @Autowired
    FinishedExchanges exchanges;

    @Autowired
    PartReaders partReaders;

    private final ChunkPool pool = ChunkPool.sharedFor(ReadOptions.DEFAULT_CHUNK_SIZE_BYTES);

    @AfterEach
    void everyLentChunkIsBack() {
        assertEquals(pool.allocatedChunks(), pool.idleChunks(), "chunks out on loan: " + pool);
    }

    @ParameterizedTest
    @ValueSource(strings = {"spring", "sluice", "sluice/plain"})
    void uploadsStoreTheBytesSentAndDownloadsSendThemBack(String variant) throws Exception {
        Path source = TestFiles.random(3 * 1024 * 1024 + 17, variant.hashCode());
        long size = Files.size(source);
        FilesClient client = client();
        String name = variant.replace('/', '-');

        Stored part = client.uploadPart(variant, "part-" + name, source);
        Stored raw = client.uploadRaw(variant, "raw-" + name, source);

        assertEquals(new Stored(200, Long.toString(size)), part);
        assertEquals(new Stored(200, Long.toString(size)), raw);
        assertEquals(sha256(source), sha256(STORAGE.resolve("part-" + name)));
        assertEquals(sha256(source), sha256(STORAGE.resolve("raw-" + name)));

        String served = variant.equals("spring") ? "spring" : "sluice";
        Answer whole = download(served, "raw-" + name, null);
        assertEquals(new Answer(200, null, size, sha256(source)), whole);
    }

    @Test
    void sluicesPartsAreStoredBySluiceAndRenamedIntoTheStorage() throws Exception {
        Path source = TestFiles.random(2 * 1024 * 1024 + 5, 77);

        Stored part = client().uploadPart("sluice", "renamed", source);

        assertEquals(new Stored(200, Long.toString(Files.size(source))), part);
        assertEquals(sha256(source), sha256(STORAGE.resolve("renamed")));
        Path stored = partReaders.sluiceStorage();
        assertEquals(STORAGE.getParent(), stored.getParent(), "beside the storage: one file system, a rename");
        try (Stream<Path> left = Files.list(stored)) {
            assertEquals(List.of(), left.toList(), "the stored part was moved, nothing left behind");
        }
    }

    @Test
    void eachVariantsFormsAreReadByItsOwnPartReader() {
        HttpMessageReader<Part> sluice = new DefaultPartHttpMessageReader();
        HttpMessageReader<Part> spring = new DefaultPartHttpMessageReader();
        PartReaders.ByPath parts = new PartReaders.ByPath(sluice, spring);

        assertSame(
                sluice,
                parts.readerFor(MockServerHttpRequest.post("/sluice/files/a").build()));
        assertSame(
                sluice,
                parts.readerFor(
                        MockServerHttpRequest.post("/sluice/plain/files/a").build()));
        assertSame(
                spring,
                parts.readerFor(MockServerHttpRequest.post("/spring/files/a").build()));
        assertSame(
                spring,
                parts.readerFor(MockServerHttpRequest.post("/sluicer/files/a").build()));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 3 * 1024 * 1024 + 17})
    void aStreamedPartIsStoredByteForByte(int size) throws Exception {
        Path source = TestFiles.random(size, size);
        String name = "stream-" + size;

        Stored stored = client().uploadStreamedPart(name, source);

        assertEquals(new Stored(200, Integer.toString(size)), stored);
        assertEquals(sha256(source), sha256(STORAGE.resolve(name)));
    }

    @Test
    void aStreamedPartAbortedMidBodyLeavesNothingAndTheServerServing() throws Exception {
        String name = "stream-aborted";
        String head = "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + name
                + "\"\r\nContent-Type: application/octet-stream\r\n\r\n";
        Flux<ByteBuf> sent = Flux.just(Unpooled.copiedBuffer(head, StandardCharsets.US_ASCII))
                .concatWith(Flux.range(0, 64).map(index -> Unpooled.wrappedBuffer(new byte[16 * 1024])))
                .concatWith(Flux.error(new IOException("the client gives up")));
        HttpClient.create()
                .headers(headers -> headers.set("Content-Length", 4 * 1024 * 1024)
                        .set("Content-Type", "multipart/form-data; boundary=b"))
                .post()
                .uri(url("/sluice/stream/" + name))
                .send(sent)
                .response()
                .onErrorResume(clientSide -> Mono.empty())
                .block(Duration.ofSeconds(20));
        exchanges.await("POST /sluice/stream/" + name);

        assertFalse(Files.exists(STORAGE.resolve(name)), "a partial upload under the client's name");
        try (Stream<Path> files = Files.list(STORAGE)) {
            assertEquals(
                    List.of(),
                    files.map(file -> file.getFileName().toString())
                            .filter(file -> file.startsWith("."))
                            .toList(),
                    "hidden files left");
        }
        Path source = TestFiles.random(100_000, 4);
        assertEquals(new Stored(200, "100000"), client().uploadStreamedPart(name, source));
        assertEquals(sha256(source), sha256(STORAGE.resolve(name)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"spring", "sluice", "sluice/pooled"})
    void rangesAreServedAs206And416(String variant) throws Exception {
        Path source = TestFiles.random(1024 * 1024, 7);
        String name = "ranges-" + variant.replace('/', '-');
        Files.copy(source, STORAGE.resolve(name));
        byte[] bytes = Files.readAllBytes(source);

        assertEquals(
                new Answer(206, "bytes 1000-199999/1048576", 199_000, sha256(bytes, 1000, 199_000)),
                download(variant, name, "bytes=1000-199999"));
        assertEquals(
                new Answer(206, "bytes 1048476-1048575/1048576", 100, sha256(bytes, 1_048_476, 100)),
                download(variant, name, "bytes=-100"));
        assertEquals(
                new Answer(206, "bytes 1048000-1048575/1048576", 576, sha256(bytes, 1_048_000, 576)),
                download(variant, name, "bytes=1048000-9999999"));
        Answer several = download(variant, name, "bytes=0-9,20-29");
        if (variant.startsWith("sluice")) {
            // One range at most: several are ignored, as RFC 9110 §14.2 allows, and the file is sent.
            assertEquals(new Answer(200, null, 1_048_576, sha256(bytes, 0, bytes.length)), several);
        } else {
            assertEquals(206, several.status()); // multipart/byteranges
        }
        Answer beyond = download(variant, name, "bytes=1048576-");
        assertEquals(416, beyond.status());
        if (variant.startsWith("sluice")) {
            // RFC 9110 §15.5.17: a 416 should say the length; Spring's resource writer does not.
            assertEquals("bytes */1048576", beyond.contentRange());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"spring", "sluice"})
    void namesOutsideTheRuleAreRefused(String variant) throws Exception {
        for (String name : List.of(".hidden", "..", "%2E%2E", "a%2Fb", "..%2Fetc")) {
            int status = client().download(variant, name, null).status();
            assertTrue(status == 400 || status == 404, name + ": " + status);
            Path empty = TestFiles.random(1, 1);
            int upload = client().uploadRaw(variant, name, empty).status();
            assertTrue(upload == 400 || upload == 404, name + ": " + upload);
        }
        try (Stream<Path> files = Files.list(STORAGE.getParent())) {
            assertFalse(files.anyMatch(file -> file.getFileName().toString().equals("etc")));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"spring", "sluice"})
    void anUploadAbortedMidBodyLeavesTheServerServing(String variant) throws Exception {
        String name = "aborted-" + variant;
        Flux<ByteBuf> sent = Flux.range(0, 64)
                .map(index -> Unpooled.wrappedBuffer(new byte[16 * 1024]))
                .concatWith(Flux.error(new IOException("the client gives up")));
        HttpClient.create()
                .headers(headers -> headers.set("Content-Length", 4 * 1024 * 1024))
                .put()
                .uri(url("/" + variant + "/raw/" + name))
                .send(sent)
                .response()
                .onErrorResume(clientSide -> Mono.empty())
                .block(Duration.ofSeconds(20));
        exchanges.await("PUT /" + variant + "/raw/" + name);

        if (variant.equals("sluice")) {
            assertFalse(Files.exists(STORAGE.resolve(name)), "a partial upload under the client's name");
            try (Stream<Path> files = Files.list(STORAGE)) {
                assertEquals(
                        List.of(),
                        files.map(file -> file.getFileName().toString())
                                .filter(file -> file.startsWith("."))
                                .toList(),
                        "hidden files left");
            }
        }
        Path source = TestFiles.random(100_000, 3);
        assertEquals(new Stored(200, "100000"), client().uploadRaw(variant, name, source));
        assertEquals(sha256(source), sha256(STORAGE.resolve(name)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"spring", "sluice", "sluice/pooled"})
    void aDownloadAbortedMidBodyLeavesTheServerServing(String variant) throws Exception {
        String name = "abandoned-" + variant.replace('/', '-');
        Path source = TestFiles.random(8 * 1024 * 1024, 5);
        Files.copy(source, STORAGE.resolve(name));

        List<byte[]> firstChunks = HttpClient.create()
                .option(ChannelOption.SO_RCVBUF, 8 * 1024)
                .get()
                .uri(url("/" + variant + "/files/" + name))
                .responseContent()
                .asByteArray()
                .take(3)
                .collectList()
                .block(Duration.ofSeconds(20));
        assertEquals(3, firstChunks.size());
        exchanges.await("GET /" + variant + "/files/" + name);

        assertEquals(new Answer(200, null, 8 * 1024 * 1024, sha256(source)), download(variant, name, null));
    }

    @ParameterizedTest
    @ValueSource(strings = {"spring", "sluice"})
    void aSlowClientGetsEveryByte(String variant) throws Exception {
        String name = "slow-" + variant;
        Path source = TestFiles.random(1024 * 1024, 9);
        byte[] bytes = Files.readAllBytes(source);
        int piece = 8 * 1024;

        String stored = HttpClient.create()
                .headers(headers -> headers.set("Content-Length", bytes.length))
                .put()
                .uri(url("/" + variant + "/raw/" + name))
                .send(Flux.interval(Duration.ofMillis(1))
                        .take(bytes.length / piece)
                        .map(index -> Unpooled.wrappedBuffer(bytes, (int) (index * piece), piece)))
                .responseSingle((response, body) -> body.asString())
                .block(Duration.ofSeconds(20));
        assertEquals(Long.toString(bytes.length), stored);

        MessageDigest received = FilesClient.sha256();
        HttpClient.create()
                .option(ChannelOption.SO_RCVBUF, 4 * 1024)
                .get()
                .uri(url("/" + variant + "/files/" + name))
                .responseContent()
                .asByteArray()
                .limitRate(1)
                .delayElements(Duration.ofMillis(1))
                .doOnNext(received::update)
                .blockLast(Duration.ofSeconds(30));
        assertEquals(sha256(source), HexFormat.of().formatHex(received.digest()));
        exchanges.await("GET /" + variant + "/files/" + name);
    }

    private Answer download(String variant, String name, String range) throws Exception {
        Answer answer = client().download(variant, name, range);
        exchanges.await("GET /" + variant + "/files/" + name);
        return answer;
    }

    private FilesClient client() {
        return FilesClient.of(URI.create(url("")));
    }

    private String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    static String sha256(Path file) throws IOException {
        return sha256(Files.readAllBytes(file), 0, (int) Files.size(file));
    }

    static String sha256(byte[] bytes, int offset, int length) {
        MessageDigest digest = FilesClient.sha256();
        digest.update(bytes, offset, length);
        return HexFormat.of().formatHex(digest.digest());
    }
}
