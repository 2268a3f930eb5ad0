package io.sluice.s3;

import io.sluice.s3.internal.AbortRetries;
import io.sluice.s3.internal.ObjectUpload;
import io.sluice.testkit.OpenFiles;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * O9: a server that takes a request's whole body and never answers (a proxy holds every final answer
 * from the moment the request starts; a {@code 100 Continue} still passes) fails the upload after the
 * answer timeout with a typed exception naming the request, cancels the request (its connection is
 * closed), aborts the multipart upload once answers flow again (at once, or by the first background
 * retry when the abort met a connection closing under it), and releases every part buffer. The client is the Netty client with its
 * default read timeout (30 s), one attempt: without the answer timeout the upload waits for that
 * timeout per attempt of the SDK's retry policy (4 attempts, about 2 minutes, for a client built as
 * docs/S3.md shows), and for as long as a client without one is configured to.
 */
class ObjectUploadAnswerTest {

    static final int MIB = 1024 * 1024;
    static final String BUCKET = "answers";
    static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(1);

    static S3ProxyServer server;
    static StallingProxy proxy;
    static S3AsyncClient client;
    static S3AsyncClient direct;
    static final AtomicReference<Class<?>> HOLD_ON = new AtomicReference<>(); // the request whose answer is held
    static final AtomicInteger ABORTS = new AtomicInteger();

    String key;

    /** Holds answers from the chosen request on, and lets them flow again when the abort starts. */
    static final class Holding implements ExecutionInterceptor {
        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            Class<?> type = HOLD_ON.get();
            if (type != null && type.isInstance(context.request())) {
                proxy.holdAnswers();
            } else if (context.request() instanceof AbortMultipartUploadRequest) {
                ABORTS.incrementAndGet();
                proxy.stallAfter(Long.MAX_VALUE);
            }
        }
    }

    @BeforeAll
    static void start() throws Exception {
        server = S3ProxyServer.start();
        direct = server.newClient();
        direct.createBucket(request -> request.bucket(BUCKET)).join();
        proxy = new StallingProxy(server.port());
        client = server.newClientVia(proxy.endpoint(), 8, new Holding());
    }

    @AfterAll
    static void stop() throws Exception {
        client.close();
        direct.close();
        proxy.close();
        server.close();
    }

    @BeforeEach
    void reset(TestInfo info) {
        key = info.getTestMethod().orElseThrow().getName();
        proxy.stallAfter(Long.MAX_VALUE);
        ABORTS.set(0);
        HOLD_ON.set(null);
    }

    @AfterEach
    void leavesNoUpload() {
        HOLD_ON.set(null);
        assertEquals(0, S3ProxyServer.openUploads(direct, BUCKET), "multipart uploads left");
    }

    private ObjectUpload newUpload() {
        return new ObjectUpload(
                client,
                BUCKET,
                key,
                5 * MIB,
                5 * MIB,
                2,
                UploadOptions.MAX_PARTS,
                -1,
                AbortRetries.DEFAULT,
                ANSWER_TIMEOUT);
    }

    private ObjectUploadTimeoutException awaitTimeout(ObjectUpload upload, long started) {
        ExecutionException failure =
                assertThrows(ExecutionException.class, () -> upload.result().get(20, TimeUnit.SECONDS));
        long elapsedMillis = (System.nanoTime() - started) / 1_000_000;
        assertTrue(
                elapsedMillis < 10_000, "ended by the answer timeout, not the client's 30 s: " + elapsedMillis + " ms");
        ObjectUploadTimeoutException timeout = assertInstanceOf(ObjectUploadTimeoutException.class, failure.getCause());
        assertTrue(timeout.getSuppressed().length <= 1, () -> "one abort failure at most: " + abortFailures(timeout));
        for (Throwable suppressed : timeout.getSuppressed()) {
            // The abort, sent as the unanswered request is cancelled, can meet a pooled connection that
            // closes under it: the stage then reports the abort as retried in the background, and the
            // first retry must abort the upload.
            ObjectUploadException abort =
                    assertInstanceOf(ObjectUploadException.class, suppressed, () -> abortFailures(timeout));
            assertInstanceOf(SdkClientException.class, abort.getCause(), () -> abortFailures(timeout));
            assertDoesNotThrow(() -> abort.abortOutcome().toCompletableFuture().get(10, TimeUnit.SECONDS));
        }
        assertEquals(BUCKET, timeout.bucket());
        assertEquals(key, timeout.key());
        assertNotNull(timeout.uploadId());
        assertEquals(ANSWER_TIMEOUT, timeout.answerTimeout());
        assertTrue(
                timeout.getMessage().contains("no answer to " + timeout.request() + " within 1000 ms"),
                timeout.getMessage());
        assertEquals(0, upload.retainedBytes(), "every part buffer released");
        return timeout;
    }

    /** Each suppressed failure with its cause: what the abort met, for a failure's message. */
    private static String abortFailures(Throwable timeout) {
        return Arrays.stream(timeout.getSuppressed())
                .map(abort -> abort + ", caused by " + abort.getCause())
                .collect(Collectors.joining("; "));
    }

    @Test
    void aPartWhoseAnswerNeverComesFailsTheUploadAndIsAborted_O9() throws Exception {
        HOLD_ON.set(UploadPartRequest.class);
        int closedBefore = proxy.closedByClient();
        ManualPublisher body = new ManualPublisher(64 * 1024);
        ObjectUpload upload = newUpload();
        long started = System.nanoTime();
        body.subscribe(upload);
        body.allow(6 * MIB); // part 1 is sent whole; part 2 waits for more

        ObjectUploadTimeoutException timeout = awaitTimeout(upload, started);

        assertEquals("UploadPart 1", timeout.request());
        assertTrue(body.cancelled());
        assertEquals(1 + timeout.getSuppressed().length, ABORTS.get(), "aborted, at once or by one retry");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (proxy.closedByClient() == closedBefore && System.nanoTime() < deadline) {
            Thread.sleep(10); // the proxy sees the close on its own thread
        }
        assertTrue(proxy.closedByClient() > closedBefore, "the unanswered request's connection was closed");
        assertTrue(!S3ProxyServer.exists(direct, BUCKET, key), "no object");
    }

    @Test
    void aFilePutWhoseAnswerNeverComesFailsAfterTheAnswerTimeout_O9(@TempDir Path directory) throws Exception {
        HOLD_ON.set(PutObjectRequest.class);
        Path file = directory.resolve("small.bin");
        Files.write(file, Bodies.bytes(MIB));
        long started = System.nanoTime();
        CompletableFuture<UploadResult> stage = ReactiveObject.of(client, BUCKET, key)
                .upload(file, UploadOptions.defaults().withAnswerTimeout(ANSWER_TIMEOUT))
                .toCompletableFuture();

        ExecutionException failure = assertThrows(ExecutionException.class, () -> stage.get(20, TimeUnit.SECONDS));
        long elapsedMillis = (System.nanoTime() - started) / 1_000_000;
        assertTrue(
                elapsedMillis < 10_000, "ended by the answer timeout, not the client's 30 s: " + elapsedMillis + " ms");
        ObjectUploadTimeoutException timeout = assertInstanceOf(ObjectUploadTimeoutException.class, failure.getCause());
        assertEquals("PutObject", timeout.request());
        assertNull(timeout.uploadId());
        assertTrue(timeout.getMessage().contains("the object may exist"), timeout.getMessage());
        assertEquals(0, ABORTS.get(), "a single PutObject has nothing to abort");
        OpenFiles.awaitNoneUnder(directory); // the file body was closed
        direct.deleteObject(request -> request.bucket(BUCKET).key(key)).join(); // the server may have stored it
    }

    @Test
    void aCompleteWhoseAnswerNeverComesFailsTheUploadSayingTheObjectMayExist_O9() throws Exception {
        HOLD_ON.set(CompleteMultipartUploadRequest.class);
        ManualPublisher body = new ManualPublisher(64 * 1024);
        ObjectUpload upload = newUpload();
        long started = System.nanoTime();
        body.subscribe(upload);
        body.allow(6 * MIB);
        body.complete();

        ObjectUploadTimeoutException timeout = awaitTimeout(upload, started);

        assertEquals("CompleteMultipartUpload", timeout.request());
        assertTrue(timeout.getMessage().contains("the object may exist"), timeout.getMessage());
        assertEquals(
                1 + timeout.getSuppressed().length,
                ABORTS.get(),
                "aborted (at once or by one retry), or found gone: the server completed it before its answer was held");
        direct.deleteObject(request -> request.bucket(BUCKET).key(key)).join();
    }
}
