package io.sluice.s3;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.reactivestreams.Subscriber;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * O11: every body sent from parts carries the CRC32C of the publisher's bytes in a header, so the
 * server refuses a byte changed on the way, and the SDK sends the body as it is (no {@code aws-chunked}
 * trailer of its own, which copies every byte once more).
 */
class ObjectUploadChecksumTest {

    static final int MIB = 1024 * 1024;
    static final String BUCKET = "checksums";
    static final int PART = 5 * MIB;

    static S3ProxyServer server;
    static S3AsyncClient client;
    static final Requests REQUESTS = new Requests();

    String key;

    /** Records the HTTP requests of PutObject and UploadPart as sent, and can change one byte of a part's body. */
    static final class Requests implements ExecutionInterceptor {
        final Map<Integer, SdkHttpRequest> parts = new ConcurrentHashMap<>(); // by part number
        final List<SdkHttpRequest> puts = new ArrayList<>();
        final List<String> createAlgorithms = new ArrayList<>();
        final AtomicInteger corruptPart = new AtomicInteger(); // 0: none

        @Override
        public synchronized void beforeTransmission(
                Context.BeforeTransmission context, ExecutionAttributes attributes) {
            SdkRequest request = context.request();
            if (request instanceof UploadPartRequest part) {
                parts.put(part.partNumber(), context.httpRequest());
            } else if (request instanceof PutObjectRequest) {
                puts.add(context.httpRequest());
            } else if (request instanceof CreateMultipartUploadRequest create) {
                createAlgorithms.add(create.checksumAlgorithmAsString());
            }
        }

        @Override
        public Optional<AsyncRequestBody> modifyAsyncHttpContent(
                Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
            Optional<AsyncRequestBody> body = context.asyncRequestBody();
            if (context.request() instanceof UploadPartRequest part
                    && part.partNumber() == corruptPart.get()
                    && body.isPresent()) {
                return Optional.of(new OneByteChanged(body.get()));
            }
            return body;
        }

        synchronized void reset() {
            parts.clear();
            puts.clear();
            createAlgorithms.clear();
            corruptPart.set(0);
        }
    }

    /** A body whose first byte is changed in a copy of the first buffer: what a faulty path between sluice and the wire does. */
    static final class OneByteChanged implements AsyncRequestBody {
        private final AsyncRequestBody body;

        OneByteChanged(AsyncRequestBody body) {
            this.body = body;
        }

        @Override
        public Optional<Long> contentLength() {
            return body.contentLength();
        }

        @Override
        public void subscribe(Subscriber<? super ByteBuffer> subscriber) {
            AtomicBoolean first = new AtomicBoolean(true);
            Bodies.mapped(body, item -> {
                        if (!first.getAndSet(false) || !item.hasRemaining()) {
                            return item;
                        }
                        ByteBuffer copy = ByteBuffer.allocate(item.remaining());
                        copy.put(item.duplicate()).flip();
                        copy.put(0, (byte) (copy.get(0) ^ 0x40));
                        return copy;
                    })
                    .subscribe(subscriber);
        }
    }

    @BeforeAll
    static void start() throws Exception {
        server = S3ProxyServer.start();
        client = server.newClient(REQUESTS);
        client.createBucket(request -> request.bucket(BUCKET)).join();
    }

    @AfterAll
    static void stop() throws Exception {
        client.close();
        server.close();
    }

    @BeforeEach
    void name(TestInfo info) {
        REQUESTS.reset();
        key = info.getTestMethod().orElseThrow().getName();
    }

    @AfterEach
    void leavesNoUpload() {
        assertEquals(0, S3ProxyServer.openUploads(client, BUCKET), "multipart uploads left");
    }

    private static void assertSentAsItIsWithItsChecksum(SdkHttpRequest request, String checksum, long length) {
        assertEquals(
                Optional.of(checksum),
                request.firstMatchingHeader("x-amz-checksum-crc32c"),
                request.headers()::toString);
        assertEquals(Optional.empty(), request.firstMatchingHeader("x-amz-trailer"), request.headers()::toString);
        assertFalse(
                request.firstMatchingHeader("Content-Encoding").orElse("").contains("aws-chunked"),
                request.headers()::toString);
        assertEquals(Optional.of(Long.toString(length)), request.firstMatchingHeader("Content-Length"));
    }

    private UploadResult upload(long size) throws Exception {
        return ReactiveObject.of(client, BUCKET, key)
                .write(
                        new Bodies.Generated(size, 64 * 1024 + 7),
                        UploadOptions.defaults().withPartSize(PART))
                .toCompletableFuture()
                .get(60, TimeUnit.SECONDS);
    }

    @Test
    void everyPartCarriesTheCrc32cOfItsBytesAndIsSentWithoutTheSdksTrailer() throws Exception {
        long size = 2L * PART + 12345;

        UploadResult stored = upload(size);

        assertEquals(3, stored.parts());
        assertEquals(List.of("CRC32C"), REQUESTS.createAlgorithms, "the upload is created for CRC32C");
        for (int number = 1; number <= 3; number++) {
            long from = (number - 1L) * PART;
            long to = Math.min(size, from + PART);
            assertSentAsItIsWithItsChecksum(REQUESTS.parts.get(number), Bodies.crc32cOf(from, to), to - from);
        }
        assertEquals(
                Bodies.md5Of(size) + "/" + size,
                Bodies.md5(ReactiveObject.of(client, BUCKET, key).read()).get(60, TimeUnit.SECONDS));
    }

    @Test
    void aBodyWithinOnePartCarriesItsCrc32cInItsPut() throws Exception {
        long size = 300 * 1024 + 1;

        UploadResult stored = upload(size);

        assertEquals(1, stored.parts());
        assertEquals(1, REQUESTS.puts.size());
        assertSentAsItIsWithItsChecksum(REQUESTS.puts.get(0), Bodies.crc32cOf(0, size), size);
    }

    @Test
    void anEmptyBodyCarriesTheCrc32cOfNothing() throws Exception {
        upload(0);

        assertEquals(1, REQUESTS.puts.size());
        assertEquals(Optional.of("AAAAAA=="), REQUESTS.puts.get(0).firstMatchingHeader("x-amz-checksum-crc32c"));
    }

    @Test
    void aClientThatCalculatesChecksumsOnlyWhenRequiredGetsNoneFromSluiceEither() throws Exception {
        long size = PART + 1;
        try (S3AsyncClient whenRequired = server.newClientWithChecksumsOnlyWhenRequired(REQUESTS)) {
            UploadResult stored = ReactiveObject.of(whenRequired, BUCKET, key)
                    .write(
                            new Bodies.Generated(size, 64 * 1024 + 7),
                            UploadOptions.defaults().withPartSize(PART))
                    .toCompletableFuture()
                    .get(60, TimeUnit.SECONDS);

            assertEquals(2, stored.parts());
        }
        assertEquals(Collections.singletonList(null), REQUESTS.createAlgorithms, "no algorithm at create");
        for (SdkHttpRequest part : REQUESTS.parts.values()) {
            assertEquals(Optional.empty(), part.firstMatchingHeader("x-amz-checksum-crc32c"), part.headers()::toString);
            assertEquals(Optional.empty(), part.firstMatchingHeader("x-amz-trailer"), part.headers()::toString);
        }
        assertEquals(
                Bodies.md5Of(size) + "/" + size,
                Bodies.md5(ReactiveObject.of(client, BUCKET, key).read()).get(60, TimeUnit.SECONDS));
    }

    @Test
    void aByteChangedOnItsWayToTheServerIsRefusedAndTheUploadAborted() {
        REQUESTS.corruptPart.set(2);

        ExecutionException failed = assertThrows(ExecutionException.class, () -> upload(3L * PART));

        S3Exception refused = assertInstanceOf(S3Exception.class, failed.getCause(), failed::toString);
        assertEquals(400, refused.statusCode(), refused::toString);
        assertEquals("BadDigest", refused.awsErrorDetails().errorCode(), refused::toString);
        assertFalse(S3ProxyServer.exists(client, BUCKET, key), "no object from a refused part");
        assertTrue(REQUESTS.parts.containsKey(2));
    }
}
