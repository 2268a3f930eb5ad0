package io.sluice.s3;

import io.sluice.s3.internal.ObjectUpload;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * O7: an unknown-length body longer than {@code maxParts} parts of the first size still fits, because
 * the part size grows; the parts S3 stores are non-decreasing, and the memory bound follows the
 * current part size. A low {@code maxParts} makes the size double every part, so growth happens
 * within a few parts of 5 MiB (S3Proxy checks the 5 MiB minimum).
 */
class ObjectUploadGrowthTest {

    static final int MIB = 1024 * 1024;
    static final String BUCKET = "growth";

    static S3ProxyServer server;
    static S3AsyncClient client;
    static final Map<Integer, Long> PART_BYTES = new ConcurrentSkipListMap<>(); // part number -> length sent

    /** Records each UploadPart's length. */
    static final class PartLengths implements ExecutionInterceptor {
        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            if (context.request() instanceof UploadPartRequest part) {
                PART_BYTES.put(part.partNumber(), part.contentLength());
            }
        }
    }

    @BeforeAll
    static void start() throws Exception {
        server = S3ProxyServer.start();
        client = server.newClient(new PartLengths());
        client.createBucket(request -> request.bucket(BUCKET)).join();
    }

    @AfterAll
    static void stop() throws Exception {
        client.close();
        server.close();
    }

    @Test
    void anUnknownLengthBodyBeyondMaxPartsOfTheFirstSizeFitsInGrowingParts() throws Exception {
        long size = 36L * MIB; // 8 parts of 5 MiB; here 5 + 10 + 20 + 1
        Bodies.Generated body = new Bodies.Generated(size, 64 * 1024);
        ObjectUpload upload = newUpload("grows", 5 * MIB, 4);
        body.subscribe(upload);

        UploadResult stored = upload.result().get(60, TimeUnit.SECONDS);

        assertEquals(size, stored.bytes());
        assertEquals(4, stored.parts());
        assertEquals(
                new TreeMap<>(Map.of(1, 5L * MIB, 2, 10L * MIB, 3, 20L * MIB, 4, 1L * MIB)),
                new TreeMap<>(PART_BYTES),
                "each part doubles: maxParts / 20 rounds up to one part per doubling");
        assertEquals(
                Bodies.md5Of(size) + "/" + size,
                Bodies.md5(ReactiveObject.of(client, BUCKET, "grows").read()).get(30, TimeUnit.SECONDS));
        assertEquals(0, S3ProxyServer.openUploads(client, BUCKET));
        long currentPartBytes = 40L * MIB; // part 4's buffer is taken at its scheduled size
        assertTrue(
                upload.peakRetainedBytes() <= 3 * currentPartBytes,
                "O1 at the current part size: " + upload.peakRetainedBytes());
        assertTrue(upload.peakRetainedBytes() > 3 * 5 * MIB, "buffers followed the growth");
        client.deleteObject(request -> request.bucket(BUCKET).key("grows")).join();
    }

    @Test
    void aGrownPartHoldsOnlyTheBytesThatArrived() throws Exception {
        long size = 35L * MIB + 100; // parts of 5, 10 and 20 MiB, then 100 bytes of a 40 MiB part
        Bodies.Generated body = new Bodies.Generated(size, 64 * 1024);
        ObjectUpload upload = newUpload("small-tail", 5 * MIB, 4);
        body.subscribe(upload);

        UploadResult stored = upload.result().get(60, TimeUnit.SECONDS);

        assertEquals(size, stored.bytes());
        assertEquals(4, stored.parts());
        long block = 256 * 1024;
        assertTrue(
                upload.peakRetainedBytes() <= size + block,
                "O1: part buffers follow the bytes that arrived, "
                        + "not the sizes of the parts they belong to: peak " + upload.peakRetainedBytes() + " for "
                        + size
                        + " bytes received");
        assertEquals(
                Bodies.md5Of(size) + "/" + size,
                Bodies.md5(ReactiveObject.of(client, BUCKET, "small-tail").read())
                        .get(30, TimeUnit.SECONDS));
        client.deleteObject(request -> request.bucket(BUCKET).key("small-tail")).join();
    }

    private static ObjectUpload newUpload(String key, int partBytes, int maxParts) {
        return new ObjectUpload(client, BUCKET, key, partBytes, UploadOptions.MAX_PART_SIZE_BYTES, 2, maxParts, -1);
    }
}
