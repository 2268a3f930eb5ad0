package io.sluice.s3;

import io.sluice.ReactiveFile;
import io.sluice.WriteOptions;
import io.sluice.testkit.OpenFiles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.S3AsyncClient;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The server goes away mid-upload and mid-download: the stage fails, the abort's failure names the
 * upload left behind, and once the client is closed no descriptor or SDK thread is left.
 */
class ServerFailureTest {

    static final int MIB = 1024 * 1024;
    static final String BUCKET = "failures";

    S3ProxyServer server;
    S3AsyncClient client;
    int descriptorsBefore;

    /** Loads the server's and the client's classes (and opens their jars) before any baseline. */
    @BeforeAll
    static void warmUp() throws Exception {
        try (S3ProxyServer warm = S3ProxyServer.start(); S3AsyncClient warmClient = warm.newClient()) {
            warmClient.createBucket(request -> request.bucket(BUCKET)).join();
            warmClient.putObject(request -> request.bucket(BUCKET).key("k"), AsyncRequestBody.fromBytes(new byte[1])).join();
            Bodies.md5(ReactiveObject.of(warmClient, BUCKET, "k").read()).join();
        }
    }

    @BeforeEach
    void start() throws Exception {
        descriptorsBefore = OpenFiles.count();
        server = S3ProxyServer.start();
        client = server.newClient(Duration.ofSeconds(3));   // a stopped server may leave a response hanging
        client.createBucket(request -> request.bucket(BUCKET)).join();
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
    }

    private void closeClientAndCheckNothingLeaks() throws Exception {
        client.close();
        server.stop();
        OpenFiles.awaitAtMost(descriptorsBefore);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (sdkThreads() > 0 && System.nanoTime() < deadline) {
            OpenFiles.pause();
        }
        assertEquals(0, sdkThreads(), "SDK threads left: event loops and completion executors");
    }

    private static long sdkThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().startsWith("aws-java-sdk") || thread.getName().startsWith("sdk-async"))
                .count();
    }

    @Test
    void serverStoppedMidUploadFailsTheStageAndNamesTheUploadLeft() throws Exception {
        ManualPublisher body = new ManualPublisher(64 * 1024);
        CompletableFuture<UploadResult> stage = ReactiveObject.of(client, BUCKET, "cut")
                .write(body, UploadOptions.defaults().withPartSize(5 * MIB).withPartsInFlight(1)).toCompletableFuture();
        body.allow(6 * MIB);                         // part 1 goes
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (S3ProxyServer.openUploads(client, BUCKET) == 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        Thread.sleep(200);                           // let part 1 land
        int port = server.port();
        server.stop();
        body.allow(10 * MIB);                        // part 2 meets a closed port

        ExecutionException failure = assertThrows(ExecutionException.class, () -> stage.get(60, TimeUnit.SECONDS));
        assertInstanceOf(SdkClientException.class, failure.getCause());
        assertTrue(body.cancelled());
        ObjectUploadException abortFailure = Arrays.stream(failure.getCause().getSuppressed())
                .filter(ObjectUploadException.class::isInstance).map(ObjectUploadException.class::cast)
                .findFirst().orElseThrow(() -> new AssertionError("no abort failure among "
                        + Arrays.toString(failure.getCause().getSuppressed())));
        assertTrue(abortFailure.getMessage().contains("the abort failed"), abortFailure.getMessage());
        String uploadId = abortFailure.uploadId();

        server.startOn(port);                        // back, with the same store: the reported upload is there
        assertEquals(1, S3ProxyServer.openUploads(client, BUCKET));
        client.abortMultipartUpload(request -> request.bucket(BUCKET).key("cut").uploadId(uploadId)).join();
        assertEquals(0, S3ProxyServer.openUploads(client, BUCKET));
        closeClientAndCheckNothingLeaks();
    }

    @Test
    void serverStoppedMidDownloadEndsTheDownloadAndLeavesTheTargetAsItWas() throws Exception {
        client.putObject(request -> request.bucket(BUCKET).key("long"), AsyncRequestBody.fromBytes(Bodies.bytes(32 * MIB))).join();
        Path target = Files.createTempDirectory("sluice-s3-download").resolve("target.bin");
        Files.writeString(target, "old");
        CountDownLatch firstItem = new CountDownLatch(1);
        CountDownLatch serverStopped = new CountDownLatch(1);
        // downloadTo's pipeline (the core's atomic writer over read()), with the first item held back
        // until the server is gone, so the stop lands mid-stream.
        Publisher<ByteBuffer> held = subscriber -> ReactiveObject.of(client, BUCKET, "long").read()
                .subscribe(new Subscriber<ByteBuffer>() {
                    boolean first = true;

                    @Override
                    public void onSubscribe(Subscription subscription) {
                        subscriber.onSubscribe(subscription);
                    }

                    @Override
                    public void onNext(ByteBuffer item) {
                        if (first) {
                            first = false;
                            firstItem.countDown();
                            try {
                                serverStopped.await(10, TimeUnit.SECONDS);   // a test's publisher: may wait
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        }
                        subscriber.onNext(item);
                    }

                    @Override
                    public void onError(Throwable error) {
                        subscriber.onError(error);
                    }

                    @Override
                    public void onComplete() {
                        subscriber.onComplete();
                    }
                });
        CompletableFuture<Long> download = ReactiveFile.of(target)
                .write(held, WriteOptions.defaults().withAtomicReplace().withSync())
                .toCompletableFuture().orTimeout(5, TimeUnit.SECONDS);
        assertTrue(firstItem.await(10, TimeUnit.SECONDS));
        server.stop();
        serverStopped.countDown();

        ExecutionException failure = assertThrows(ExecutionException.class, () -> download.get(30, TimeUnit.SECONDS));
        // The SDK's Netty client may see the closed connection (an error) or may not signal at all, in
        // which case the caller's timeout ends the download, cancelling the HTTP stream.
        assertTrue(failure.getCause() instanceof TimeoutException || failure.getCause() instanceof SdkClientException
                || failure.getCause() instanceof java.io.IOException, failure.getCause().toString());
        assertEquals("old", Files.readString(target));
        try (Stream<Path> files = Files.list(target.getParent())) {
            assertEquals(List.of(target), files.toList(), "no temporary left");
        }
        closeClientAndCheckNothingLeaks();
    }
}
