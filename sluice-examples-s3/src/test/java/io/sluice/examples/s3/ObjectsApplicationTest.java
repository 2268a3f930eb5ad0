package io.sluice.examples.s3;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.examples.spring.LeakReports;
import io.sluice.s3.S3ProxyServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import software.amazon.awssdk.services.s3.S3AsyncClient;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The application on Reactor Netty on a random port, storing into S3Proxy on loopback, driven by
 * real HTTP clients; each test ends with {@link LeakReports}' check (Netty's detector at PARANOID,
 * and no buffer released twice) and with no multipart upload left open in the bucket.
 */
@ExtendWith(LeakReports.class)
@SpringBootTest(classes = ObjectsApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Import(S3ProxyCredentials.class)
class ObjectsApplicationTest {

    private static final String BUCKET = "objects";
    private static final int PART_BYTES = 5 * 1024 * 1024;
    private static final Duration WAIT = Duration.ofSeconds(30);

    private static S3ProxyServer server;
    private static S3AsyncClient s3; // the test's own view of the bucket

    @LocalServerPort
    int port;

    private final HttpClient http =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeAll
    static void startServer() throws Exception {
        server = S3ProxyServer.start();
        s3 = server.newClient();
        s3.createBucket(request -> request.bucket(BUCKET)).join();
    }

    @AfterAll
    static void stopServer() throws Exception {
        s3.close();
        server.close();
    }

    @DynamicPropertySource
    static void s3Properties(DynamicPropertyRegistry properties) {
        properties.add("s3.bucket", () -> BUCKET);
        properties.add("s3.endpoint", () -> server.endpoint().toString());
        properties.add("s3.path-style", () -> "true");
        properties.add("s3.part-size", () -> PART_BYTES + "B");
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {0, 1024, 12 * 1024 * 1024 + 3})
    void anUploadIsStoredAndServedBackByteForByte(int size) throws Exception {
        byte[] content = random(size, size);
        String key = "round-trip-" + size;

        HttpResponse<String> put = http.send(
                HttpRequest.newBuilder(url(key))
                        .PUT(HttpRequest.BodyPublishers.ofByteArray(content))
                        .build(),
                HttpResponse.BodyHandlers.ofString());

        assertEquals(200, put.statusCode(), put.body());
        JsonNode stored = new ObjectMapper().readTree(put.body());
        assertEquals(size, stored.get("bytes").asLong());
        assertEquals(size > PART_BYTES ? 3 : 1, stored.get("parts").asInt(), "5 MiB parts");
        assertEquals(
                s3.headObject(head -> head.bucket(BUCKET).key(key)).join().eTag(),
                stored.get("eTag").asText());
        assertEquals(0, S3ProxyServer.openUploads(s3, BUCKET));

        HttpResponse<byte[]> get =
                http.send(HttpRequest.newBuilder(url(key)).GET().build(), HttpResponse.BodyHandlers.ofByteArray());

        assertEquals(200, get.statusCode());
        assertEquals(
                "application/octet-stream",
                get.headers().firstValue("Content-Type").orElse(null));
        assertEquals(size, get.headers().firstValueAsLong("Content-Length").orElse(-1));
        assertArrayEquals(content, get.body());
    }

    @Test
    void aMissingKeyIsNotFoundWithoutAStackTrace() throws Exception {
        HttpResponse<String> get = http.send(
                HttpRequest.newBuilder(url("no-such-key")).GET().build(), HttpResponse.BodyHandlers.ofString());

        assertEquals(404, get.statusCode());
        assertFalse(get.body().contains("Exception"), get.body());
    }

    @Test
    void aClientThatGivesUpMidUploadLeavesNoMultipartUploadAndNoObject() throws Exception {
        String key = "given-up";
        CompletableFuture<Void> givingUp = new CompletableFuture<>();
        Flux<ByteBuf> sixOfTwelveMiB = Flux.range(0, 6 * 16)
                .map(index -> Unpooled.wrappedBuffer(new byte[64 * 1024]))
                .concatWith(Mono.fromFuture(givingUp).then(Mono.error(new IOException("the client gives up"))));
        CompletableFuture<Object> exchange = reactor.netty.http.client.HttpClient.create() // sends a Flux, fails it
                .headers(headers -> headers.set("Content-Length", 12 * 1024 * 1024))
                .put()
                .uri(url(key))
                .send(sixOfTwelveMiB)
                .response()
                .cast(Object.class)
                .onErrorResume(clientSide -> Mono.just(clientSide))
                .toFuture();

        // The first 5 MiB are a full part: the upload is a multipart one before the client goes.
        Deadlines.awaitTrue("a multipart upload open", WAIT, () -> S3ProxyServer.openUploads(s3, BUCKET) == 1);
        givingUp.complete(null);
        exchange.get(WAIT.toSeconds(), TimeUnit.SECONDS);

        Deadlines.awaitTrue("the multipart upload aborted", WAIT, () -> S3ProxyServer.openUploads(s3, BUCKET) == 0);
        assertFalse(S3ProxyServer.exists(s3, BUCKET, key), "an object from a body that never ended");
        byte[] content = random(100_000, 3);
        HttpResponse<String> again = http.send(
                HttpRequest.newBuilder(url(key))
                        .PUT(HttpRequest.BodyPublishers.ofByteArray(content))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, again.statusCode(), "the server still serves: " + again.body());
        assertTrue(S3ProxyServer.exists(s3, BUCKET, key));
    }

    private URI url(String key) {
        return URI.create("http://127.0.0.1:" + port + "/objects/" + key);
    }

    static byte[] random(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }
}
