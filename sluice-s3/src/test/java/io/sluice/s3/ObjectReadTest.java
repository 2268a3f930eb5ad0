package io.sluice.s3;

import io.sluice.BytePublisher;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.SubmissionPublisher;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** B1–B3: reads of objects and ranges, demand, cancel, and the SDK's errors. */
class ObjectReadTest {

    static final int MIB = 1024 * 1024;
    static final String BUCKET = "reads";
    static final int SIZE = 3 * MIB + 5;
    static final byte[] CONTENT = Bodies.bytes(SIZE);

    static S3ProxyServer server;
    static S3AsyncClient client;

    @BeforeAll
    static void start() throws Exception {
        server = S3ProxyServer.start();
        client = server.newClient();
        client.createBucket(request -> request.bucket(BUCKET)).join();
        client.putObject(request -> request.bucket(BUCKET).key("content"), AsyncRequestBody.fromBytes(CONTENT))
                .join();
        client.putObject(
                        request -> request.bucket(BUCKET).key("big"),
                        AsyncRequestBody.fromBytes(Bodies.bytes(32 * MIB)))
                .join();
    }

    @AfterAll
    static void stop() throws Exception {
        client.close();
        server.close();
    }

    static byte[] collect(Flow.Publisher<ByteBuffer> publisher) throws Exception {
        CompletableFuture<byte[]> result = new CompletableFuture<>();
        publisher.subscribe(new Flow.Subscriber<>() {
            final java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();

            @Override
            public void onSubscribe(Flow.Subscription subscription) {
                subscription.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(ByteBuffer item) {
                byte[] bytes = new byte[item.remaining()];
                item.get(bytes);
                out.write(bytes, 0, bytes.length);
            }

            @Override
            public void onError(Throwable error) {
                result.completeExceptionally(error);
            }

            @Override
            public void onComplete() {
                result.complete(out.toByteArray());
            }
        });
        return result.get(30, TimeUnit.SECONDS);
    }

    @Test
    void readsTheWholeObjectAsAFlowPublisher() throws Exception {
        assertArrayEquals(
                CONTENT, collect(ReactiveObject.of(client, BUCKET, "content").read()));
    }

    @Test
    void readsRanges() throws Exception {
        ReactiveObject object = ReactiveObject.of(client, BUCKET, "content");
        assertArrayEquals(Arrays.copyOfRange(CONTENT, 10, 20), collect(object.readRange(10, 10)));
        assertArrayEquals(Arrays.copyOfRange(CONTENT, MIB, SIZE), collect(object.readRange(MIB, Long.MAX_VALUE)));
        assertArrayEquals(Arrays.copyOfRange(CONTENT, SIZE - 7, SIZE), collect(object.readLast(7)));
        assertArrayEquals(CONTENT, collect(object.readRange(0, SIZE + 100L)), "a range past the end is cut");
    }

    @Test
    void ifMatchReadsTheVersionWithThatETagAndRefusesAnother() throws Exception {
        client.putObject(request -> request.bucket(BUCKET).key("versioned"), AsyncRequestBody.fromBytes(CONTENT))
                .join();
        String first = client.headObject(request -> request.bucket(BUCKET).key("versioned"))
                .join()
                .eTag();
        ReactiveObject object = ReactiveObject.of(client, BUCKET, "versioned");

        assertArrayEquals(
                Arrays.copyOfRange(CONTENT, 10, 20),
                collect(object.readRange(10, 10, ObjectReadOptions.defaults().withIfMatch(first))));

        client.putObject(
                        request -> request.bucket(BUCKET).key("versioned"),
                        AsyncRequestBody.fromBytes(new byte[] {1, 2, 3}))
                .join();
        ExecutionException replaced = assertThrows(
                ExecutionException.class,
                () -> Bodies.md5(object.readRange(
                                10, 10, ObjectReadOptions.defaults().withIfMatch(first)))
                        .get(10, TimeUnit.SECONDS));
        assertEquals(
                412, assertInstanceOf(S3Exception.class, replaced.getCause()).statusCode(), replaced.toString());
    }

    @Test
    void aMissingKeyIsTheSdksNoSuchKeyException() {
        ExecutionException failure = assertThrows(
                ExecutionException.class,
                () -> Bodies.md5(ReactiveObject.of(client, BUCKET, "missing").read())
                        .get(10, TimeUnit.SECONDS));
        NoSuchKeyException error = assertInstanceOf(NoSuchKeyException.class, failure.getCause());
        assertEquals(404, error.statusCode());
    }

    @Test
    void aMissingBucketIsTheSdksNoSuchBucketException() {
        ExecutionException failure = assertThrows(
                ExecutionException.class,
                () -> Bodies.md5(ReactiveObject.of(client, "no-such-bucket", "key")
                                .read())
                        .get(10, TimeUnit.SECONDS));
        assertInstanceOf(NoSuchBucketException.class, failure.getCause());
    }

    @Test
    void uploadingToAMissingBucketFailsWithNoSuchBucketException() {
        try (S3AsyncClient patient = server.newPatientClient()) {
            ExecutionException small = assertThrows(
                    ExecutionException.class,
                    () -> ReactiveObject.of(patient, "no-such-bucket", "k")
                            .write(new Bodies.Generated(10, 10), UploadOptions.defaults())
                            .toCompletableFuture()
                            .get(10, TimeUnit.SECONDS));
            assertInstanceOf(NoSuchBucketException.class, small.getCause());
        }
        ExecutionException multipart = assertThrows(
                ExecutionException.class,
                () -> ReactiveObject.of(client, "no-such-bucket", "k")
                        .write(
                                new Bodies.Generated(12 * MIB, 64 * 1024),
                                UploadOptions.defaults().withPartSize(5 * MIB))
                        .toCompletableFuture()
                        .get(10, TimeUnit.SECONDS));
        assertInstanceOf(NoSuchBucketException.class, multipart.getCause());
    }

    @Test
    void deliversNoMoreThanRequested_B2() throws Exception {
        AtomicLong received = new AtomicLong();
        AtomicReference<Subscription> subscription = new AtomicReference<>();
        CountDownLatch first = new CountDownLatch(1);
        ReactiveObject.of(client, BUCKET, "big").read().subscribe(new Subscriber<ByteBuffer>() {
            @Override
            public void onSubscribe(Subscription incoming) {
                subscription.set(incoming);
                incoming.request(2);
            }

            @Override
            public void onNext(ByteBuffer item) {
                received.incrementAndGet();
                first.countDown();
            }

            @Override
            public void onError(Throwable error) {}

            @Override
            public void onComplete() {}
        });
        assertTrue(first.await(10, TimeUnit.SECONDS));
        Thread.sleep(300); // time for items beyond demand to show up, if any did
        assertEquals(2, received.get());
        subscription.get().cancel();
    }

    @Test
    void cancelledReadsGiveTheirConnectionsBack_B3() throws Exception {
        try (S3AsyncClient small = S3AsyncClient.builder()
                .endpointOverride(server.endpoint())
                .forcePathStyle(true)
                .region(software.amazon.awssdk.regions.Region.US_EAST_1)
                .credentialsProvider(() -> software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create(
                        S3ProxyServer.IDENTITY, S3ProxyServer.CREDENTIAL))
                .httpClientBuilder(NettyNioAsyncHttpClient.builder()
                        .maxConcurrency(2)
                        .connectionAcquisitionTimeout(Duration.ofSeconds(5)))
                .build()) {
            for (int i = 0; i < 6; i++) {
                CountDownLatch first = new CountDownLatch(1);
                ReactiveObject.of(small, BUCKET, "big").read().subscribe(new Subscriber<ByteBuffer>() {
                    Subscription subscription;

                    @Override
                    public void onSubscribe(Subscription incoming) {
                        subscription = incoming;
                        incoming.request(1);
                    }

                    @Override
                    public void onNext(ByteBuffer item) {
                        subscription.cancel();
                        first.countDown();
                    }

                    @Override
                    public void onError(Throwable error) {}

                    @Override
                    public void onComplete() {}
                });
                assertTrue(first.await(10, TimeUnit.SECONDS), "read " + i + " got a connection");
            }
            assertEquals(
                    Bodies.md5Of(32 * MIB) + "/" + 32 * MIB,
                    Bodies.md5(ReactiveObject.of(small, BUCKET, "big").read()).get(30, TimeUnit.SECONDS));
        }
    }

    @Test
    void aNonPositiveRequestFailsTheRead_3_9() throws Exception {
        CompletableFuture<Throwable> failure = new CompletableFuture<>();
        AtomicInteger items = new AtomicInteger();
        BytePublisher publisher = ReactiveObject.of(client, BUCKET, "content").read();
        publisher.subscribe(new Subscriber<ByteBuffer>() {
            @Override
            public void onSubscribe(Subscription incoming) {
                incoming.request(0);
            }

            @Override
            public void onNext(ByteBuffer item) {
                items.incrementAndGet();
            }

            @Override
            public void onError(Throwable error) {
                failure.complete(error);
            }

            @Override
            public void onComplete() {
                failure.complete(null);
            }
        });
        Throwable refused = failure.get(10, TimeUnit.SECONDS);
        assertInstanceOf(IllegalArgumentException.class, refused);
        assertTrue(refused.getMessage().contains("§3.9"));
        assertEquals(0, items.get());
    }

    @Test
    void uploadsFromAFlowPublisher() throws Exception {
        ReactiveObject object = ReactiveObject.of(client, BUCKET, "from-flow");
        CompletableFuture<UploadResult> stored;
        try (SubmissionPublisher<ByteBuffer> publisher = new SubmissionPublisher<>()) {
            stored = object.write((Flow.Publisher<ByteBuffer>) publisher, UploadOptions.defaults())
                    .toCompletableFuture();
            publisher.submit(ByteBuffer.wrap(Arrays.copyOfRange(CONTENT, 0, 1000)));
            publisher.submit(ByteBuffer.wrap(Arrays.copyOfRange(CONTENT, 1000, 5000)));
        }
        assertEquals(5000, stored.get(10, TimeUnit.SECONDS).bytes());
        assertArrayEquals(Arrays.copyOfRange(CONTENT, 0, 5000), collect(object.read()));
    }
}
