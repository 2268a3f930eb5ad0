package io.sluice.s3;

import io.sluice.s3.internal.ObjectUpload;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import software.amazon.awssdk.services.s3.S3AsyncClient;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sizes x part sizes x parts in flight x item sizes: every body comes back byte for byte, in the
 * number of parts the part size implies, within the memory bound (O1) and one item of demand (O2).
 * S3Proxy enforces S3's 5 MiB minimum for every part but the last, so part sizes start there.
 */
class ObjectUploadPropertiesTest {

    static final String BUCKET = "properties";
    static S3ProxyServer server;
    static S3AsyncClient client;
    static final AtomicInteger KEYS = new AtomicInteger();

    @BeforeContainer
    static void start() throws Exception {
        server = S3ProxyServer.start();
        client = server.newClient();
        client.createBucket(request -> request.bucket(BUCKET)).join();
    }

    @AfterContainer
    static void stop() throws Exception {
        client.close();
        server.close();
    }

    @Property(tries = 15)
    void everyBodyRoundTripsWithinTheBound(
            @ForAll @IntRange(min = 0, max = 17 * 1024 * 1024) int size,
            @ForAll @IntRange(min = 5 * 1024 * 1024, max = 7 * 1024 * 1024) int partBytes,
            @ForAll @IntRange(min = 1, max = 4) int partsInFlight,
            @ForAll @IntRange(min = 1024, max = 6 * 1024 * 1024) int itemBytes)
            throws Exception {
        String key = "p-" + KEYS.incrementAndGet();
        Bodies.Generated body = new Bodies.Generated(size, itemBytes);
        ObjectUpload upload = new ObjectUpload(
                client,
                BUCKET,
                key,
                partBytes,
                UploadOptions.MAX_PART_SIZE_BYTES,
                partsInFlight,
                UploadOptions.MAX_PARTS,
                -1);
        body.subscribe(upload);

        UploadResult stored = upload.result().get(60, TimeUnit.SECONDS);

        assertEquals(size, stored.bytes());
        int parts = size <= partBytes ? 1 : (int) ((size + (long) partBytes - 1) / partBytes);
        assertEquals(parts, stored.parts());
        assertTrue(
                upload.peakRetainedBytes() <= (long) (partsInFlight + 1) * partBytes,
                "O1: " + upload.peakRetainedBytes());
        assertTrue(
                upload.peakRetainedBytes() <= size + 256 * 1024,
                "O1: blocks are taken only as bytes arrive: " + upload.peakRetainedBytes() + " for " + size + " bytes");
        assertTrue(body.maxOutstanding.get() <= 1, "O2");
        assertEquals(
                Bodies.md5Of(size) + "/" + size,
                Bodies.md5(ReactiveObject.of(client, BUCKET, key).read()).get(30, TimeUnit.SECONDS));
        assertEquals(0, S3ProxyServer.openUploads(client, BUCKET));
        client.deleteObject(request -> request.bucket(BUCKET).key(key)).join();
    }

    /**
     * Small parts of a fixed size (growth capped at the first size): the limit is hit before any Complete, where
     * S3Proxy would check the 5 MiB minimum.
     */
    @Property(tries = 4)
    void aBodyBeyondTheLastAllowedPartFailsNamingTheLimitAndIsAborted(@ForAll @IntRange(min = 1, max = 4) int maxParts)
            throws Exception {
        int partBytes = 64 * 1024;
        String key = "limit-" + KEYS.incrementAndGet();
        Bodies.Generated body = new Bodies.Generated((long) partBytes * (maxParts + 3), 10_000);
        ObjectUpload upload =
                new ObjectUpload(client, BUCKET, key, partBytes, partBytes, 2, maxParts, -1); // fixed size
        body.subscribe(upload);

        Throwable failure = upload.result().handle((result, error) -> error).get(30, TimeUnit.SECONDS);

        assertTrue(failure instanceof ObjectUploadException, String.valueOf(failure));
        assertTrue(failure.getMessage().contains("limit of " + maxParts + " parts"), failure.getMessage());
        assertTrue(body.cancelled.get());
        assertEquals(0, S3ProxyServer.openUploads(client, BUCKET));
        assertTrue(!S3ProxyServer.exists(client, BUCKET, key));
    }
}
