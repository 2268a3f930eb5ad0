package io.sluice.s3;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * O4, O5: every way an upload can end early leaves no multipart upload and no object, and the stage
 * completes only after the abort.
 */
class ObjectUploadAbortTest {

    static final int MIB = 1024 * 1024;
    static final String BUCKET = "aborts";
    static final UploadOptions FIVE_MIB_PARTS =
            UploadOptions.defaults().withPartSize(5 * MIB).withPartsInFlight(2);

    static S3ProxyServer server;
    static S3AsyncClient client;
    static final Hooks HOOKS = new Hooks();

    String key;

    /** Runs a test's action when the SDK is about to send a request of a given type, and counts requests. */
    static final class Hooks implements ExecutionInterceptor {
        final AtomicReference<Class<?>> trigger = new AtomicReference<>();
        final AtomicReference<Consumer<SdkRequest>> action = new AtomicReference<>();
        final AtomicInteger creates = new AtomicInteger();
        final AtomicInteger parts = new AtomicInteger();
        final AtomicInteger aborts = new AtomicInteger();

        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            SdkRequest request = context.request();
            if (request instanceof CreateMultipartUploadRequest) {
                creates.incrementAndGet();
            } else if (request instanceof UploadPartRequest) {
                parts.incrementAndGet();
            } else if (request instanceof AbortMultipartUploadRequest) {
                aborts.incrementAndGet();
            }
            Class<?> type = trigger.get();
            if (type != null && type.isInstance(request)) {
                trigger.set(null);
                action.get().accept(request);
            }
        }

        void reset() {
            trigger.set(null);
            creates.set(0);
            parts.set(0);
            aborts.set(0);
        }

        void on(Class<?> type, Consumer<SdkRequest> what) {
            action.set(what);
            trigger.set(type);
        }
    }

    @BeforeAll
    static void start() throws Exception {
        server = S3ProxyServer.start();
        client = server.newClient(HOOKS);
        client.createBucket(request -> request.bucket(BUCKET)).join();
    }

    @AfterAll
    static void stop() throws Exception {
        client.close();
        server.close();
    }

    @BeforeEach
    void name(TestInfo info) {
        HOOKS.reset();
        key = info.getTestMethod().orElseThrow().getName();
    }

    @AfterEach
    void leavesNoUploadAndNoObject() {
        assertEquals(0, S3ProxyServer.openUploads(client, BUCKET), "multipart uploads left");
    }

    private CompletableFuture<UploadResult> write(ManualPublisher body) {
        return ReactiveObject.of(client, BUCKET, key)
                .write(body, FIVE_MIB_PARTS)
                .toCompletableFuture();
    }

    private void assertNoObject() {
        assertFalse(S3ProxyServer.exists(client, BUCKET, key), "object appeared");
    }

    @Test
    void cancelBeforeAnyByteCancelsUpstreamAndLeavesNothing() throws Exception {
        ManualPublisher body = new ManualPublisher(64 * 1024);
        CompletableFuture<UploadResult> stage = write(body);

        assertTrue(stage.cancel(true));
        assertThrows(CancellationException.class, () -> stage.get(10, TimeUnit.SECONDS));
        assertTrue(body.cancelled());
        assertEquals(0, HOOKS.creates.get());
        assertNoObject();
    }

    @Test
    void cancelMidFirstPartSendsNothing() throws Exception {
        ManualPublisher body = new ManualPublisher(64 * 1024);
        CompletableFuture<UploadResult> stage = write(body);
        body.allow(3 * MIB);

        assertTrue(stage.cancel(true));
        assertThrows(CancellationException.class, () -> stage.get(10, TimeUnit.SECONDS));
        assertTrue(body.cancelled());
        assertEquals(0, HOOKS.creates.get(), "a part smaller than the part size is never sent");
        assertNoObject();
    }

    @Test
    void cancelWithAPartInFlightWaitsForItThenAborts() throws Exception {
        ManualPublisher body = new ManualPublisher(64 * 1024);
        AtomicReference<CompletableFuture<UploadResult>> stage = new AtomicReference<>();
        AtomicReference<Boolean> cancelled = new AtomicReference<>();
        HOOKS.on(UploadPartRequest.class, request -> cancelled.set(stage.get().cancel(true)));
        stage.set(write(body));
        body.allow(12 * MIB); // two full parts and the start of a third

        assertThrows(CancellationException.class, () -> stage.get().get(10, TimeUnit.SECONDS));
        assertTrue(cancelled.get());
        assertTrue(stage.get().isCancelled());
        assertTrue(body.awaitCancelled(5));
        assertEquals(1, HOOKS.creates.get());
        assertEquals(1, HOOKS.aborts.get(), "aborted once, after the part in flight ended");
        assertNoObject();
    }

    @Test
    void cancelAfterCompleteWasSentLosesAndTheObjectIsStored() throws Exception {
        ManualPublisher body = new ManualPublisher(64 * 1024);
        AtomicReference<CompletableFuture<UploadResult>> stage = new AtomicReference<>();
        AtomicReference<Boolean> cancelled = new AtomicReference<>();
        HOOKS.on(
                CompleteMultipartUploadRequest.class,
                request -> cancelled.set(stage.get().cancel(true)));
        stage.set(write(body));
        body.allow(11 * MIB);
        body.complete();

        UploadResult stored = stage.get().get(30, TimeUnit.SECONDS);
        assertFalse(cancelled.get(), "O5: past the point of no return cancel loses");
        assertEquals(11 * MIB, stored.bytes());
        assertEquals(3, stored.parts());
        assertTrue(S3ProxyServer.exists(client, BUCKET, key));
        client.deleteObject(request -> request.bucket(BUCKET).key(key)).join();
    }

    @Test
    void timeoutFromOutsideAbortsBeforeTheStageFails() throws Exception {
        ManualPublisher body = new ManualPublisher(64 * 1024);
        CompletableFuture<UploadResult> stage = write(body);
        body.allow(6 * MIB); // one part sent, then the source stalls
        CompletableFuture<String> whenFailed = stage.orTimeout(300, TimeUnit.MILLISECONDS)
                .handle((result, error) ->
                        "aborts=" + HOOKS.aborts.get() + ", open=" + S3ProxyServer.openUploads(client, BUCKET));

        ExecutionException failure = assertThrows(ExecutionException.class, () -> stage.get(10, TimeUnit.SECONDS));
        assertInstanceOf(TimeoutException.class, failure.getCause());
        assertEquals("aborts=1, open=0", whenFailed.get(10, TimeUnit.SECONDS), "dependents run after the abort");
        assertTrue(body.cancelled());
        assertNoObject();
    }

    @Test
    void upstreamErrorAfterPartsAbortsAndFailsWithThatError() throws Exception {
        ManualPublisher body = new ManualPublisher(64 * 1024);
        CompletableFuture<UploadResult> stage = write(body);
        body.allow(11 * MIB);
        IOException boom = new IOException("source failed");
        body.fail(boom);

        ExecutionException failure = assertThrows(ExecutionException.class, () -> stage.get(10, TimeUnit.SECONDS));
        assertSame(boom, failure.getCause());
        assertEquals(1, HOOKS.creates.get());
        assertEquals(1, HOOKS.aborts.get());
        assertNoObject();
    }

    @Test
    void aFailedPartAbortsAndCancelsUpstream() throws Exception {
        ManualPublisher body = new ManualPublisher(64 * 1024);
        HOOKS.on(UploadPartRequest.class, request -> {
            throw new IllegalStateException("part refused");
        });
        CompletableFuture<UploadResult> stage = write(body);
        body.allow(20 * MIB);

        ExecutionException failure = assertThrows(ExecutionException.class, () -> stage.get(10, TimeUnit.SECONDS));
        assertTrue(
                failure.getCause().getMessage().contains("part refused"),
                failure.getCause().toString());
        assertTrue(body.cancelled());
        assertEquals(1, HOOKS.aborts.get());
        assertNoObject();
    }

    @Test
    void aFailedCompleteAbortsTheParts() throws Exception {
        ManualPublisher body = new ManualPublisher(64 * 1024);
        HOOKS.on(CompleteMultipartUploadRequest.class, request -> {
            throw new IllegalStateException("complete refused");
        });
        CompletableFuture<UploadResult> stage = write(body);
        body.allow(11 * MIB);
        body.complete();

        ExecutionException failure = assertThrows(ExecutionException.class, () -> stage.get(10, TimeUnit.SECONDS));
        assertTrue(
                failure.getCause().getMessage().contains("complete refused"),
                failure.getCause().toString());
        assertEquals(1, HOOKS.aborts.get());
        assertNoObject();
    }

    @Test
    void aBodyShorterThanDeclaredFailsAndIsAborted() throws Exception {
        ManualPublisher body = new ManualPublisher(64 * 1024);
        CompletableFuture<UploadResult> stage = ReactiveObject.of(client, BUCKET, key)
                .write(body, FIVE_MIB_PARTS.withContentLength(12 * MIB))
                .toCompletableFuture();
        body.allow(11 * MIB);
        body.complete();

        ExecutionException failure = assertThrows(ExecutionException.class, () -> stage.get(10, TimeUnit.SECONDS));
        ObjectUploadException error = assertInstanceOf(ObjectUploadException.class, failure.getCause());
        assertTrue(error.getMessage().contains("shorter than declared: 11534336 of 12582912"), error.getMessage());
        assertEquals(BUCKET, error.bucket());
        assertEquals(key, error.key());
        assertEquals(1, HOOKS.aborts.get());
        assertNoObject();
    }

    @Test
    void aBodyLongerThanDeclaredFailsAndCancelsUpstream() throws Exception {
        ManualPublisher body = new ManualPublisher(64 * 1024);
        CompletableFuture<UploadResult> stage = ReactiveObject.of(client, BUCKET, key)
                .write(body, FIVE_MIB_PARTS.withContentLength(MIB))
                .toCompletableFuture();
        body.allow(2 * MIB);

        ExecutionException failure = assertThrows(ExecutionException.class, () -> stage.get(10, TimeUnit.SECONDS));
        assertTrue(
                failure.getCause().getMessage().contains("longer than declared"),
                failure.getCause().getMessage());
        assertTrue(body.cancelled());
        assertNoObject();
    }

    @Test
    void aNullItemFailsTheUpload_2_13() throws Exception {
        ManualPublisher body = new ManualPublisher(64 * 1024);
        CompletableFuture<UploadResult> stage = write(body);
        body.allow(6 * MIB);

        assertThrows(NullPointerException.class, () -> body.sendRaw(null));
        ExecutionException failure = assertThrows(ExecutionException.class, () -> stage.get(10, TimeUnit.SECONDS));
        assertInstanceOf(NullPointerException.class, failure.getCause());
        assertTrue(body.cancelled());
        assertNoObject();
    }

    @Test
    void aSecondSubscriptionIsCancelled_2_5() throws Exception {
        ManualPublisher first = new ManualPublisher(64 * 1024);
        ManualPublisher second = new ManualPublisher(64 * 1024);
        org.reactivestreams.Publisher<ByteBuffer> twice = subscriber -> {
            first.subscribe(subscriber);
            second.subscribe(subscriber);
        };
        CompletableFuture<UploadResult> stage = ReactiveObject.of(client, BUCKET, key)
                .write(twice, FIVE_MIB_PARTS)
                .toCompletableFuture();

        assertTrue(second.awaitCancelled(5));
        assertFalse(first.cancelled());
        first.allow(100);
        first.complete();
        assertEquals(100, stage.get(10, TimeUnit.SECONDS).bytes());
        client.deleteObject(request -> request.bucket(BUCKET).key(key)).join();
    }
}
