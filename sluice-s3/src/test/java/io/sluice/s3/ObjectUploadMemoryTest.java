package io.sluice.s3;

import io.sluice.s3.internal.ObjectUpload;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.services.s3.S3AsyncClient;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * O1, O2: the part buffers an upload holds never exceed {@code (k + 1) * partSize}, measured by the
 * upload's own count of the buffers it allocated (not by heap: S3Proxy shares this JVM), and the
 * upload never has more than one item requested.
 */
class ObjectUploadMemoryTest {

    static final int MIB = 1024 * 1024;
    static final String BUCKET = "memory";

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

    @ParameterizedTest(name = "{0} MiB in items of {1} B, {2} B parts, k={3}")
    @CsvSource({
        "64,   65536,    5242880, 2", // 8 MiB * 8 in small items
        "64,   65536,    5242880, 1",
        "40,   7340032,  5242880, 2", // items larger than a part: one is held, never copied ahead
        "1024, 1048576,  8388608, 2", // 1 GiB of unknown length at the defaults
    })
    void retainedPartBuffersStayWithinKPlusOneParts(int mebibytes, int itemBytes, int partBytes, int partsInFlight)
            throws Exception {
        long size = (long) mebibytes * MIB;
        Bodies.Generated body = new Bodies.Generated(size, itemBytes);
        String key = "memory-" + mebibytes + "-" + itemBytes + "-" + partsInFlight;
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

        UploadResult stored = upload.result().get(120, TimeUnit.SECONDS);

        assertEquals(size, stored.bytes());
        long bound = (long) (partsInFlight + 1) * partBytes;
        assertTrue(
                upload.peakRetainedBytes() <= bound,
                "O1: peak " + upload.peakRetainedBytes() + " > (k+1)*partSize = " + bound);
        assertTrue(upload.peakRetainedBytes() >= partBytes, "the bound is met, not avoided");
        assertEquals(1, body.maxOutstanding.get(), "O2: one item requested at a time");
        assertEquals(0, S3ProxyServer.openUploads(client, BUCKET));
        assertEquals(
                client.headObject(request -> request.bucket(BUCKET).key(key))
                        .join()
                        .contentLength(),
                size);
        client.deleteObject(request -> request.bucket(BUCKET).key(key)).join();
    }
}
