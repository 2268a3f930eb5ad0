package io.sluice.s3;

import io.sluice.ReactiveFile;
import io.sluice.WriteOptions;
import io.sluice.s3.internal.AbortRetries;
import io.sluice.s3.internal.ObjectUpload;
import io.sluice.testkit.OpenFiles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.S3AsyncClient;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
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
        try (S3ProxyServer warm = S3ProxyServer.start();
                S3AsyncClient warmClient = warm.newClient()) {
            warmClient.createBucket(request -> request.bucket(BUCKET)).join();
            warmClient
                    .putObject(request -> request.bucket(BUCKET).key("k"), AsyncRequestBody.fromBytes(new byte[1]))
                    .join();
            Bodies.md5(ReactiveObject.of(warmClient, BUCKET, "k").read()).join();
        }
    }

    @BeforeEach
    void start() throws Exception {
        descriptorsBefore = OpenFiles.count();
        server = S3ProxyServer.start();
        client = server.newClient(Duration.ofSeconds(3)); // a stopped server may leave a response hanging
        client.createBucket(request -> request.bucket(BUCKET)).join();
    }

    @AfterEach
    void stop() throws Exception {
        client.close(); // again after a passing test: closing twice is harmless
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
                .filter(thread -> thread.getName().startsWith("aws-java-sdk")
                        || thread.getName().startsWith("sdk-async"))
                .count();
    }

    /** Starts an upload whose part 2 meets a stopped server; returns its stage once part 1 has landed and the server is down. */
    private CompletableFuture<UploadResult> uploadCutByAStop(ManualPublisher body, String key) throws Exception {
        CompletableFuture<UploadResult> stage = ReactiveObject.of(client, BUCKET, key)
                .write(body, UploadOptions.defaults().withPartSize(5 * MIB).withPartsInFlight(1))
                .toCompletableFuture();
        body.allow(6 * MIB); // part 1 goes
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (S3ProxyServer.openUploads(client, BUCKET) == 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        Thread.sleep(200); // let part 1 land
        server.stop();
        body.allow(10 * MIB); // part 2 meets a closed port
        return stage;
    }

    private static ObjectUploadException abortFailure(ExecutionException failure) {
        return Arrays.stream(failure.getCause().getSuppressed())
                .filter(ObjectUploadException.class::isInstance)
                .map(ObjectUploadException.class::cast)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no abort failure among "
                        + Arrays.toString(failure.getCause().getSuppressed())));
    }

    @Test
    void serverStoppedMidUploadFailsTheStageAndTheAbortSucceedsWhenItComesBack() throws Exception {
        ManualPublisher body = new ManualPublisher(64 * 1024);
        int port = server.port();
        CompletableFuture<UploadResult> stage = uploadCutByAStop(body, "cut");

        ExecutionException failure = assertThrows(ExecutionException.class, () -> stage.get(60, TimeUnit.SECONDS));
        assertInstanceOf(SdkClientException.class, failure.getCause());
        assertTrue(body.cancelled());
        ObjectUploadException abortFailure = abortFailure(failure);
        assertTrue(abortFailure.getMessage().contains("the abort failed"), abortFailure.getMessage());
        assertEquals(BUCKET, abortFailure.bucket());
        assertEquals("cut", abortFailure.key());
        assertTrue(abortFailure.uploadId() != null, "the upload id is named");
        CompletableFuture<Void> outcome = abortFailure.abortOutcome().toCompletableFuture();
        Thread.sleep(1500); // the first retries meet the stopped server
        assertTrue(!outcome.isDone(), "O8: the outcome waits for the retries");

        server.startOn(port); // back within the retries, with the same store
        outcome.get(40, TimeUnit.SECONDS); // completes normally: aborted in the background
        assertEquals(0, S3ProxyServer.openUploads(client, BUCKET), "the abort was retried once the server was back");
        closeClientAndCheckNothingLeaks();
    }

    @Test
    void aServerThatNeverComesBackFailsTheStageNamingTheUploadAndTheRetriesEnd() throws Exception {
        ManualPublisher body = new ManualPublisher(64 * 1024);
        int port = server.port();
        LogCapture log = LogCapture.of("io.sluice.s3");
        AbortRetries quick = new AbortRetries(Duration.ofMillis(50), Duration.ofMillis(200), Duration.ofSeconds(1));
        ObjectUpload upload = new ObjectUpload(
                client,
                BUCKET,
                "left",
                5 * MIB,
                5 * MIB,
                1,
                UploadOptions.MAX_PARTS,
                -1,
                quick,
                UploadOptions.DEFAULT_ANSWER_TIMEOUT);
        body.subscribe(upload);
        body.allow(6 * MIB);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (S3ProxyServer.openUploads(client, BUCKET) == 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        Thread.sleep(200);
        server.stop();
        body.allow(10 * MIB);
        long failedAt;

        ExecutionException failure =
                assertThrows(ExecutionException.class, () -> upload.result().get(60, TimeUnit.SECONDS));
        failedAt = System.nanoTime();
        ObjectUploadException abortFailure = abortFailure(failure);
        assertEquals(BUCKET, abortFailure.bucket());
        assertEquals("left", abortFailure.key());
        String uploadId = abortFailure.uploadId();
        assertTrue(uploadId != null && abortFailure.getMessage().contains(uploadId), abortFailure.getMessage());
        assertTrue(abortFailure.getMessage().contains("AbortIncompleteMultipartUpload"), abortFailure.getMessage());

        AbortRetries.Retrying retrying = upload.abortRetrying();
        ExecutionException gaveUp = assertThrows(
                ExecutionException.class,
                () -> abortFailure.abortOutcome().toCompletableFuture().get(30, TimeUnit.SECONDS));
        ObjectUploadException left = assertInstanceOf(
                ObjectUploadException.class, gaveUp.getCause(), "O8: the outcome fails naming the upload left behind");
        assertEquals(uploadId, left.uploadId());
        assertEquals("left", left.key());
        assertTrue(
                left.getMessage().contains(uploadId) && left.getMessage().contains("AbortIncompleteMultipartUpload"),
                left.getMessage());
        assertInstanceOf(SdkClientException.class, left.getCause());
        assertTrue(System.nanoTime() - failedAt < TimeUnit.SECONDS.toNanos(10), "the retries are bounded");
        String logged = log.text();
        assertTrue(
                logged.contains("WARNING") && logged.contains("s3://" + BUCKET + "/left, upload id " + uploadId),
                "an operator is told which upload is left: " + logged);
        int attempts = retrying.attempts();
        assertTrue(attempts >= 3, "retried: " + attempts);
        Thread.sleep(500);
        assertEquals(attempts, retrying.attempts(), "nothing scheduled once they gave up");
        long threadsDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (sluiceThreads() > 0 && System.nanoTime() < threadsDeadline) {
            Thread.sleep(100);
        }
        assertEquals(0, sluiceThreads(), "sluice's timer threads end after their idle time");

        log.close();
        server.startOn(port); // back too late: the named upload is still there
        assertEquals(1, S3ProxyServer.openUploads(client, BUCKET));
        client.abortMultipartUpload(
                        request -> request.bucket(BUCKET).key("left").uploadId(uploadId))
                .join();
        assertEquals(0, S3ProxyServer.openUploads(client, BUCKET));
        closeClientAndCheckNothingLeaks();
    }

    private static long sluiceThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().startsWith("sluice-timer")
                        || thread.getName().startsWith("sluice-timeout"))
                .count();
    }

    @Test
    void serverStoppedMidDownloadEndsTheDownloadAndLeavesTheTargetAsItWas() throws Exception {
        client.putObject(
                        request -> request.bucket(BUCKET).key("long"),
                        AsyncRequestBody.fromBytes(Bodies.bytes(32 * MIB)))
                .join();
        Path target = Files.createTempDirectory("sluice-s3-download").resolve("target.bin");
        Files.writeString(target, "old");
        CountDownLatch firstItem = new CountDownLatch(1);
        CountDownLatch serverStopped = new CountDownLatch(1);
        // downloadTo's pipeline (the core's atomic writer over read()), with the first item held back
        // until the server is gone, so the stop lands mid-stream.
        AtomicBoolean first = new AtomicBoolean(true);
        Publisher<ByteBuffer> held =
                Bodies.mapped(ReactiveObject.of(client, BUCKET, "long").read(), item -> {
                    if (first.getAndSet(false)) {
                        firstItem.countDown();
                        try {
                            serverStopped.await(10, TimeUnit.SECONDS); // a test's publisher: may wait
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    return item;
                });
        CompletableFuture<Long> download = ReactiveFile.of(target)
                .write(held, WriteOptions.defaults().withAtomicReplace().withSync())
                .toCompletableFuture()
                .orTimeout(5, TimeUnit.SECONDS);
        assertTrue(firstItem.await(10, TimeUnit.SECONDS));
        server.stop();
        serverStopped.countDown();

        ExecutionException failure = assertThrows(ExecutionException.class, () -> download.get(30, TimeUnit.SECONDS));
        // The SDK's Netty client may see the closed connection (an error) or may not signal at all, in
        // which case the caller's timeout ends the download, cancelling the HTTP stream.
        assertTrue(
                failure.getCause() instanceof TimeoutException
                        || failure.getCause() instanceof SdkClientException
                        || failure.getCause() instanceof java.io.IOException,
                failure.getCause().toString());
        assertEquals("old", Files.readString(target));
        try (Stream<Path> files = Files.list(target.getParent())) {
            assertEquals(List.of(target), files.toList(), "no temporary left");
        }
        closeClientAndCheckNothingLeaks();
    }
}
