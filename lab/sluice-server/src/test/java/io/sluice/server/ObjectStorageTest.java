package io.sluice.server;

import io.sluice.lab.ChildJvm;
import io.sluice.s3.S3ProxyServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3AsyncClient;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Lane C over a bucket ({@code --storage s3://BUCKET}) against S3Proxy on loopback: two servers
 * sharing one bucket serve each other's uploads, with the directory's names, ranges, limits and
 * answers, and a failed upload leaves no object and no multipart upload.
 */
@Timeout(120)
class ObjectStorageTest {

    private static final String ACCESS_KEY = "aws.accessKeyId";
    private static final String SECRET_KEY = "aws.secretAccessKey";

    private static S3ProxyServer s3;
    private static S3AsyncClient client;

    @TempDir
    Path directory;

    private String bucket;
    private RecordingEvents events;
    private FileServer first;
    private FileServer second;

    @BeforeAll
    static void startS3() throws Exception {
        s3 = S3ProxyServer.start();
        client = s3.newClient();
        // The servers' clients take the SDK's default credentials chain, as a deployment would.
        System.setProperty(ACCESS_KEY, S3ProxyServer.IDENTITY);
        System.setProperty(SECRET_KEY, S3ProxyServer.CREDENTIAL);
    }

    @AfterAll
    static void stopS3() throws Exception {
        System.clearProperty(ACCESS_KEY);
        System.clearProperty(SECRET_KEY);
        client.close();
        s3.close();
    }

    @BeforeEach
    void twoServersOnOneBucket() throws Exception {
        bucket = "files-" + UUID.randomUUID().toString().substring(0, 8);
        client.createBucket(request -> request.bucket(bucket)).join();
        events = new RecordingEvents();
        first = FileServer.start(config().withMaxUploadBytes(12L << 20).withEvents(events));
        second = FileServer.start(config());
    }

    private ServerConfig config() {
        return ServerConfig.loopback(Lane.C, directory).withBucket(new S3Bucket(bucket, s3.endpoint(), "us-east-1"));
    }

    @AfterEach
    void stopServers() throws Exception {
        first.close();
        second.close();
        assertEquals(0, S3ProxyServer.openUploads(client, bucket), "multipart uploads left in the bucket");
    }

    @Test
    void anUploadToOneServerIsServedWholeAndInRangesByTheOther() throws Exception {
        byte[] bytes = random(3 * 1024 * 1024 + 17, 1);

        RawHttp.Answer stored = RawHttp.put(first.port(), "/files/a.bin", bytes);

        assertEquals(201, stored.status(), stored.body());
        assertEquals("{\"name\":\"a.bin\",\"bytes\":" + bytes.length + ",\"sha256\":\"" + sha256(bytes) + "\"}\n",
                stored.body());
        assertTrue(events.next().stored());
        RawHttp.Answer whole = RawHttp.request(second.port(), "GET", "/files/a.bin");
        assertEquals(200, whole.status());
        assertEquals("application/octet-stream", whole.header("Content-Type"));
        assertArrayEquals(bytes, whole.bytes());
        RawHttp.Answer middle = RawHttp.request(second.port(), "GET", "/files/a.bin", "Range: bytes=1000-199999\r\n");
        assertEquals(206, middle.status());
        assertEquals("bytes 1000-199999/" + bytes.length, middle.header("Content-Range"));
        assertArrayEquals(Arrays.copyOfRange(bytes, 1000, 200_000), middle.bytes());
        RawHttp.Answer suffix = RawHttp.request(first.port(), "GET", "/files/a.bin", "Range: bytes=-100\r\n");
        assertArrayEquals(Arrays.copyOfRange(bytes, bytes.length - 100, bytes.length), suffix.bytes());
        RawHttp.Answer beyond = RawHttp.request(second.port(), "GET", "/files/a.bin",
                "Range: bytes=" + bytes.length + "-\r\n");
        assertEquals(416, beyond.status());
        assertEquals("bytes */" + bytes.length, beyond.header("Content-Range"));
    }

    @Test
    void aStreamOfUnknownLengthLongerThanAPartGoesUpInPartsAndComesBackWhole() throws Exception {
        byte[] bytes = random(10 * 1024 * 1024 + 5, 2);   // 8 MiB parts: two of them

        HttpResponse<String> stored = HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri(first, "/files/big"))
                .PUT(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(bytes))).build(),
                HttpResponse.BodyHandlers.ofString());

        assertEquals(201, stored.statusCode(), stored.body());
        assertTrue(events.next().stored());
        assertArrayEquals(bytes, RawHttp.request(second.port(), "GET", "/files/big").bytes());
    }

    @Test
    void emptyFilesRoundTrip() throws Exception {
        assertEquals(201, RawHttp.put(second.port(), "/files/empty", new byte[0]).status());

        RawHttp.Answer got = RawHttp.request(first.port(), "GET", "/files/empty");

        assertEquals(200, got.status());
        assertEquals("0", got.header("Content-Length"));
        assertEquals(0, got.bytes().length);
    }

    @Test
    void aMissingFileIs404AndADeleteOnOneServerIsSeenByTheOther() throws Exception {
        assertEquals(404, RawHttp.request(first.port(), "GET", "/files/missing").status());
        assertEquals(404, RawHttp.request(first.port(), "DELETE", "/files/missing").status());
        assertEquals(201, RawHttp.put(first.port(), "/files/gone", new byte[] {1, 2, 3}).status());

        assertEquals(204, RawHttp.request(second.port(), "DELETE", "/files/gone").status());

        assertEquals(404, RawHttp.request(first.port(), "GET", "/files/gone").status());
        assertFalse(S3ProxyServer.exists(client, bucket, "gone"));
    }

    @Test
    void namesOutsideTheRuleAreRefusedBeforeTheBucketIsAsked() throws Exception {
        assertEquals(400, RawHttp.request(first.port(), "GET", "/files/.hidden").status());
        assertEquals(400, RawHttp.request(first.port(), "PUT", "/files/a%2Fb").status());
    }

    @Test
    void anUploadPastTheLimitIs413AndLeavesNoObjectAndNoMultipartUpload() throws Exception {
        byte[] declared = random((12 << 20) + 1, 3);
        try (RawHttp http = new RawHttp(first.port())) {
            http.putHead("/files/declared", declared.length);   // answered from the headers alone
            assertEquals(413, http.readAnswer().status());
        }

        HttpResponse<String> streamed = HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri(first, "/files/streamed"))
                .PUT(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(declared))).build(),
                HttpResponse.BodyHandlers.ofString());

        assertEquals(413, streamed.statusCode(), streamed.body());
        RecordingEvents.Outcome outcome = events.next();
        assertFalse(outcome.stored());
        assertInstanceOf(HttpProblem.class, outcome.cause());
        assertFalse(S3ProxyServer.exists(client, bucket, "declared"));
        assertFalse(S3ProxyServer.exists(client, bucket, "streamed"));
        assertEquals(0, S3ProxyServer.openUploads(client, bucket));
    }

    @Test
    void aServerOnABucketThatDoesNotExistRefusesToStartNamingIt() {
        ServerConfig config = ServerConfig.loopback(Lane.C, directory)
                .withBucket(new S3Bucket("no-such-bucket", s3.endpoint(), "us-east-1"));

        IOException refused = assertThrows(IOException.class, () -> FileServer.start(config));

        assertTrue(refused.getMessage().startsWith("cannot use bucket s3://no-such-bucket at " + s3.endpoint()),
                refused.getMessage());
    }

    @Test
    void twoServerProcessesSharingTheBucketServeEachOthersUploads() throws Exception {
        List<String> credentials = List.of("-D" + ACCESS_KEY + "=" + S3ProxyServer.IDENTITY,
                "-D" + SECRET_KEY + "=" + S3ProxyServer.CREDENTIAL);
        List<String> args = List.of("--port", "0", "--storage", "s3://" + bucket, "--s3-endpoint", s3.endpoint().toString());
        try (ChildJvm one = server("server one", credentials, args); ChildJvm two = server("server two", credentials, args)) {
            byte[] fromOne = random(1024 * 1024, 4);
            byte[] fromTwo = "a small file".getBytes(StandardCharsets.UTF_8);

            assertEquals(201, RawHttp.put(one.port(), "/files/from-one", fromOne).status());
            assertEquals(201, RawHttp.put(two.port(), "/files/from-two", fromTwo).status());

            assertArrayEquals(fromOne, RawHttp.request(two.port(), "GET", "/files/from-one").bytes());
            assertArrayEquals(fromTwo, RawHttp.request(one.port(), "GET", "/files/from-two").bytes());
            RawHttp.Answer range = RawHttp.request(one.port(), "GET", "/files/from-two", "Range: bytes=2-6\r\n");
            assertEquals(206, range.status());
            assertEquals("small", range.body());
            assertTrue(one.alive() && two.alive(), one.death() + " / " + two.death());
        }
    }

    @Test
    void mainRefusesABucketForABlockingLane() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> ServerConfig.loopback(Lane.A, directory).withBucket(new S3Bucket("b", null, "us-east-1")));
        assertTrue(refused.getMessage().startsWith("a bucket is served by lane C only"), refused.getMessage());
    }

    private static ChildJvm server(String name, List<String> jvmOptions, List<String> args) throws IOException {
        ChildJvm server = ChildJvm.main(name, "io.sluice.server.Main").maxHeap("256m").exitOnOutOfMemory()
                .options(jvmOptions).args(args).start();
        server.awaitReady();
        return server;
    }

    private static URI uri(FileServer server, String target) {
        return server.uri().resolve(target);
    }

    private static byte[] random(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
