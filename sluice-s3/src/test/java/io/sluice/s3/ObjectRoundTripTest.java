package io.sluice.s3;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.s3.S3AsyncClient;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ObjectRoundTripTest {

    static final int MIB = 1024 * 1024;
    static final String BUCKET = "round-trips";

    static S3ProxyServer server;
    static S3AsyncClient client;

    @BeforeAll
    static void start() throws Exception {
        server = S3ProxyServer.start();
        client = server.newClient();
        client.createBucket(request -> request.bucket(BUCKET)).join();
    }

    @AfterAll
    static void stop() throws Exception {
        client.close();
        server.close();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 5 * MIB - 1, 5 * MIB, 5 * MIB + 1, 16 * MIB + 3})
    void uploadsBodiesOfUnknownLengthAndReadsThemBack(int size) throws Exception {
        ReactiveObject object = ReactiveObject.of(client, BUCKET, "unknown-" + size);
        UploadResult stored = object.write(
                        new Bodies.Generated(size, 64 * 1024 + 7),
                        UploadOptions.defaults().withPartSize(5 * MIB).withPartsInFlight(2))
                .toCompletableFuture()
                .get(60, TimeUnit.SECONDS);

        assertEquals(size, stored.bytes());
        int expectedParts = size <= 5 * MIB ? 1 : (size + 5 * MIB - 1) / (5 * MIB);
        assertEquals(expectedParts, stored.parts(), "one PutObject up to one part, else parts");
        assertEquals(Bodies.md5Of(size) + "/" + size, Bodies.md5(object.read()).get(60, TimeUnit.SECONDS));
        assertEquals(0, S3ProxyServer.openUploads(client, BUCKET));
    }
}
