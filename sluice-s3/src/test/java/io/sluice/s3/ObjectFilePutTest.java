package io.sluice.s3;

import io.sluice.ChunkPool;
import io.sluice.ReactiveFile;
import io.sluice.ReadOptions;
import io.sluice.s3.internal.ObjectUpload;
import io.sluice.testkit.OpenFiles;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;
import org.reactivestreams.Subscriber;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * O10: a file that fits the first part goes as one {@code PutObject} read by the SDK from the file
 * (no lent chunk, no part buffer), checked and committed at its last byte (FileBody's V1): a file
 * that changes while it is sent fails the upload naming the file and is not stored; a cancel wins
 * until the last byte and leaves no object, and loses after it; no descriptor stays open.
 */
class ObjectFilePutTest {

    static final int MIB = 1024 * 1024;
    static final String BUCKET = "file-puts";
    static final String EMPTY_MD5 = "d41d8cd98f00b204e9800998ecf8427e";

    static S3ProxyServer server;
    static S3AsyncClient client;
    static final Hooks HOOKS = new Hooks();

    @TempDir
    Path directory;

    String key;
    long lentBefore;

    /**
     * Counts requests and runs a test's action before a {@code PutObject} is sent, when its body's
     * first bytes pass to the HTTP client, or when its answer has arrived.
     */
    static final class Hooks implements ExecutionInterceptor {
        final AtomicInteger puts = new AtomicInteger();
        final AtomicInteger creates = new AtomicInteger();
        final AtomicReference<Runnable> beforePut = new AtomicReference<>();
        final AtomicReference<Runnable> atFirstBytes = new AtomicReference<>();
        final AtomicReference<Runnable> afterAnswer = new AtomicReference<>();

        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            SdkRequest request = context.request();
            if (request instanceof PutObjectRequest) {
                puts.incrementAndGet();
                run(beforePut);
            } else if (request instanceof CreateMultipartUploadRequest) {
                creates.incrementAndGet();
            }
        }

        @Override
        public Optional<AsyncRequestBody> modifyAsyncHttpContent(
                Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
            Optional<AsyncRequestBody> body = context.asyncRequestBody();
            Runnable action = atFirstBytes.get();
            if (!(context.request() instanceof PutObjectRequest) || body.isEmpty() || action == null) {
                return body;
            }
            return Optional.of(new AtFirstBytes(body.get()));
        }

        @Override
        public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
            if (context.request() instanceof PutObjectRequest) {
                run(afterAnswer);
            }
        }

        void reset() {
            puts.set(0);
            creates.set(0);
            beforePut.set(null);
            atFirstBytes.set(null);
            afterAnswer.set(null);
        }

        static void run(AtomicReference<Runnable> armed) {
            Runnable action = armed.getAndSet(null);
            if (action != null) {
                action.run();
            }
        }

        /** Runs the armed action, on the sending thread, as the first bytes pass to the client. */
        final class AtFirstBytes implements AsyncRequestBody {
            private final AsyncRequestBody body;

            AtFirstBytes(AsyncRequestBody body) {
                this.body = body;
            }

            @Override
            public Optional<Long> contentLength() {
                return body.contentLength();
            }

            @Override
            public String contentType() {
                return body.contentType();
            }

            @Override
            public void subscribe(Subscriber<? super ByteBuffer> subscriber) {
                Bodies.mapped(body, item -> {
                            run(atFirstBytes);
                            return item;
                        })
                        .subscribe(subscriber);
            }
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
        lentBefore = pool().lentChunks();
    }

    @AfterEach
    void leavesNoUploadAndNoDescriptor() {
        assertEquals(0, S3ProxyServer.openUploads(client, BUCKET), "multipart uploads left");
        OpenFiles.awaitNoneUnder(directory); // V3
    }

    private static ChunkPool pool() {
        return ChunkPool.sharedFor(ReadOptions.DEFAULT_CHUNK_SIZE_BYTES);
    }

    private Path file(String name, int size) throws IOException {
        Path file = directory.resolve(name);
        Files.write(file, Bodies.bytes(size));
        return file;
    }

    private CompletableFuture<UploadResult> upload(Path file, UploadOptions options) {
        return ReactiveObject.of(client, BUCKET, key).upload(file, options).toCompletableFuture();
    }

    private boolean stored() {
        return S3ProxyServer.exists(client, BUCKET, key);
    }

    private void assertReadFromTheFile() {
        assertEquals(lentBefore, pool().lentChunks(), "O10, O12: the SDK read the file; no chunk was lent to copy it");
    }

    @Test
    void aSmallFileGoesInOnePutReadFromTheFileAndItsETagIsItsMd5() throws Exception {
        Path file = file("small.txt", MIB + 7);

        UploadResult stored = upload(file, UploadOptions.defaults()).get(30, TimeUnit.SECONDS);

        assertEquals(MIB + 7, stored.bytes());
        assertEquals(1, stored.parts());
        assertEquals("\"" + Bodies.md5Of(MIB + 7) + "\"", stored.eTag());
        assertEquals(1, HOOKS.puts.get());
        assertEquals(0, HOOKS.creates.get());
        assertReadFromTheFile();
        assertEquals(
                Bodies.md5Of(MIB + 7) + "/" + (MIB + 7),
                Bodies.md5(ReactiveObject.of(client, BUCKET, key).read()).get(10, TimeUnit.SECONDS));
        HeadObjectResponse head =
                client.headObject(request -> request.bucket(BUCKET).key(key)).join();
        assertEquals("application/octet-stream", head.contentType(), "V4: not guessed from the name");
    }

    @Test
    void anEmptyFileIsStoredEmpty() throws Exception {
        Path file = file("empty.bin", 0);

        UploadResult stored = upload(file, UploadOptions.defaults()).get(30, TimeUnit.SECONDS);

        assertEquals(0, stored.bytes());
        assertEquals(1, stored.parts());
        assertEquals("\"" + EMPTY_MD5 + "\"", stored.eTag());
        assertEquals(
                0L,
                client.headObject(request -> request.bucket(BUCKET).key(key))
                        .join()
                        .contentLength());
    }

    @Test
    void aFileOfExactlyThePartSizeGoesInOnePut() throws Exception {
        Path file = file("exact.bin", 5 * MIB);

        UploadResult stored =
                upload(file, UploadOptions.defaults().withPartSize(5 * MIB)).get(30, TimeUnit.SECONDS);

        assertEquals(5 * MIB, stored.bytes());
        assertEquals(1, stored.parts());
        assertEquals("\"" + Bodies.md5Of(5 * MIB) + "\"", stored.eTag());
        assertEquals(0, HOOKS.creates.get());
        assertReadFromTheFile();
    }

    @Test
    void aFileOneByteOverThePartSizeGoesInParts() throws Exception {
        Path file = file("over.bin", 5 * MIB + 1);

        UploadResult stored =
                upload(file, UploadOptions.defaults().withPartSize(5 * MIB)).get(30, TimeUnit.SECONDS);

        assertEquals(5 * MIB + 1, stored.bytes());
        assertEquals(2, stored.parts());
        assertEquals(1, HOOKS.creates.get());
        assertEquals(0, HOOKS.puts.get());
        assertReadFromTheFile(); // O12: in parts, each read by the SDK from its range of the file
        assertEquals(
                Bodies.md5Of(5 * MIB + 1) + "/" + (5 * MIB + 1),
                Bodies.md5(ReactiveObject.of(client, BUCKET, key).read()).get(10, TimeUnit.SECONDS));
    }

    /** The failure of a file that changed while it was sent: it names the file, and nothing was stored. */
    private void assertChangedFileFails(CompletableFuture<UploadResult> stage, Path file, String what)
            throws Exception {
        ExecutionException failure = assertThrows(ExecutionException.class, () -> stage.get(30, TimeUnit.SECONDS));
        ObjectUploadException error = assertInstanceOf(ObjectUploadException.class, failure.getCause());
        assertTrue(error.getMessage().contains(file.toString()), error.getMessage());
        assertTrue(error.getMessage().contains(what), error.getMessage());
        assertEquals(BUCKET, error.bucket());
        assertEquals(key, error.key());
        assertFalse(stored(), "V1: a changed file is not stored");
    }

    @Test
    void aFileThatGrowsWhileItIsSentFailsNamingItAndIsNotStored() throws Exception {
        Path file = file("grows.bin", MIB);
        HOOKS.atFirstBytes.set(() -> FileChanges.append(file, 1));

        assertChangedFileFails(
                upload(file, UploadOptions.defaults()), file, "1048576 bytes when the upload started, 1048577 now");
    }

    @Test
    void aFileThatShrinksWhileItIsSentFailsNamingItAndIsNotStored() throws Exception {
        Path file = file("shrinks.bin", MIB);
        HOOKS.atFirstBytes.set(() -> FileChanges.truncate(file, MIB / 2));

        assertChangedFileFails(
                upload(file, UploadOptions.defaults()), file, "1048576 bytes when the upload started, 524288 now");
    }

    @Test
    void aFileWrittenWhileItIsSentFailsEvenAtTheSameSize() throws Exception {
        Path file = file("rewritten.bin", MIB);
        HOOKS.atFirstBytes.set(() -> {
            try {
                Files.write(file, new byte[MIB]);
                Files.setLastModifiedTime(
                        file,
                        java.nio.file.attribute.FileTime.fromMillis(
                                Files.getLastModifiedTime(file).toMillis() + 10_000));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });

        assertChangedFileFails(upload(file, UploadOptions.defaults()), file, "was written while it was uploaded");
    }

    /** An upload of {@code file} and what its {@code cancel(true)} returned, called once when {@code hook} runs. */
    private record CancelledAt(CompletableFuture<UploadResult> stage, CompletableFuture<Boolean> returned) {}

    private CancelledAt uploadCancelledAt(AtomicReference<Runnable> hook, Path file) {
        AtomicReference<CompletableFuture<UploadResult>> stage = new AtomicReference<>();
        CompletableFuture<Boolean> returned = new CompletableFuture<>();
        CompletableFuture<Void> armed = new CompletableFuture<>();
        hook.set(() -> {
            armed.join();
            returned.complete(stage.get().cancel(true));
        });
        stage.set(upload(file, UploadOptions.defaults()));
        armed.complete(null);
        return new CancelledAt(stage.get(), returned);
    }

    @Test
    void cancelBeforeThePutSendsAnyByteLeavesNoObject() throws Exception {
        Path file = file("cancel-before.bin", MIB);
        CancelledAt cancel = uploadCancelledAt(HOOKS.beforePut, file);

        assertThrows(CancellationException.class, () -> cancel.stage().get(30, TimeUnit.SECONDS));
        assertTrue(cancel.returned().get(10, TimeUnit.SECONDS), "U1: before the last byte an outside completion wins");
        assertFalse(stored());
    }

    @Test
    void cancelWhileTheFileIsSentLeavesNoObject() throws Exception {
        Path file = file("cancel-during.bin", 4 * MIB);
        CancelledAt cancel = uploadCancelledAt(HOOKS.atFirstBytes, file);

        assertThrows(CancellationException.class, () -> cancel.stage().get(30, TimeUnit.SECONDS));
        assertTrue(
                cancel.returned().get(10, TimeUnit.SECONDS), "O10: while the file is sent an outside completion wins");
        assertTrue(cancel.stage().isCancelled());
        assertFalse(stored(), "O10: the call ended without the last byte");
    }

    @Test
    void cancelAfterTheLastByteLosesAndTheObjectIsStored() throws Exception {
        Path file = file("cancel-after.bin", MIB);
        CancelledAt cancel = uploadCancelledAt(HOOKS.afterAnswer, file);

        UploadResult stored = cancel.stage().get(30, TimeUnit.SECONDS);
        assertFalse(cancel.returned().get(10, TimeUnit.SECONDS), "U2: past the last byte cancel loses");
        assertEquals(MIB, stored.bytes());
        assertTrue(stored());
    }

    @Test
    void cancelAfterAnEmptyFileWasSentLosesAndTheObjectIsStored() throws Exception {
        Path file = file("cancel-after-empty.bin", 0);
        CancelledAt cancel = uploadCancelledAt(HOOKS.afterAnswer, file);

        UploadResult stored = cancel.stage().get(30, TimeUnit.SECONDS);
        assertFalse(
                cancel.returned().get(10, TimeUnit.SECONDS),
                "U2: an empty body has no last byte; it commits before it is sent (O5)");
        assertEquals(0, stored.bytes());
        assertTrue(stored());
    }

    /** The failure of an upload of {@code file} refused before anything was sent. */
    private <T extends Throwable> T refused(Path file, Class<T> type) {
        ExecutionException failure = assertThrows(
                ExecutionException.class,
                () -> upload(file, UploadOptions.defaults()).get(30, TimeUnit.SECONDS));
        T error = assertInstanceOf(type, failure.getCause());
        assertTrue(error.getMessage().contains(file.toString()), error.getMessage());
        assertEquals(0, HOOKS.puts.get() + HOOKS.creates.get(), "nothing was sent");
        assertFalse(stored());
        return error;
    }

    @Test
    void aDirectoryIsRefusedNamingIt() throws Exception {
        Path folder = Files.createDirectory(directory.resolve("folder"));

        FileSystemException error = refused(folder, FileSystemException.class);
        assertEquals("Is a directory", error.getReason());
    }

    @Test
    void aFifoIsRefusedWithoutWaitingForAWriter() throws Exception {
        Path fifo = directory.resolve("fifo");
        assumeTrue(mkfifo(fifo), "mkfifo is not available here");

        FileSystemException error = refused(fifo, FileSystemException.class);
        assertTrue(error.getReason().contains("FIFO"), error.getReason());
    }

    /**
     * What {@code upload(Path)} does with a file it found empty, with the file grown or shrunk by
     * the time it is opened: the size it declared, then the file's read.
     */
    private ObjectUploadException uploadOfAFileFoundAt(long size, Path file) {
        ObjectUpload upload = new ObjectUpload(client, BUCKET, key, 5 * MIB, 5 * MIB, 2, 10_000, -1);
        upload.declareLengthOf(file, size);
        ReactiveFile.of(file).read().subscribe(upload);
        ExecutionException failure = assertThrows(
                ExecutionException.class,
                () -> upload.result().toCompletableFuture().get(30, TimeUnit.SECONDS));
        ObjectUploadException error = assertInstanceOf(ObjectUploadException.class, failure.getCause());
        assertTrue(error.getMessage().contains("the file " + file + " was "), error.getMessage());
        assertEquals(0, HOOKS.puts.get() + HOOKS.creates.get(), "nothing was sent");
        assertFalse(stored());
        return error;
    }

    @Test
    void anEmptyFileThatGrewBeforeItWasOpenedFailsNamingIt() throws Exception {
        Path file = file("grew.bin", 5);

        ObjectUploadException error = uploadOfAFileFoundAt(0, file);
        assertTrue(error.getMessage().contains("longer than 0 bytes, its size when the upload started"));
    }

    @Test
    void aFileThatShrankBeforeItWasOpenedFailsNamingIt() throws Exception {
        Path file = file("shrank.bin", 5);

        ObjectUploadException error = uploadOfAFileFoundAt(10, file);
        assertTrue(
                error.getMessage().contains("shorter than 10 bytes, its size when the upload started: 5 bytes read"));
    }

    private static boolean mkfifo(Path fifo) throws InterruptedException {
        try {
            return new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0;
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    void aMissingBucketFailsAsTheSdkSaysSo() throws Exception {
        Path file = file("nowhere.bin", 100_000);
        try (S3AsyncClient patient = server.newPatientClient()) {
            ExecutionException failure = assertThrows(
                    ExecutionException.class,
                    () -> ReactiveObject.of(patient, "no-such-bucket", key)
                            .upload(file, UploadOptions.defaults())
                            .toCompletableFuture()
                            .get(30, TimeUnit.SECONDS));
            assertInstanceOf(NoSuchBucketException.class, failure.getCause());
        }
    }

    @Test
    void aFileRemovedBeforeItIsReadFailsWithNoSuchFileException() throws Exception {
        Path file = file("removed.bin", MIB);
        AtomicBoolean removed = new AtomicBoolean();
        HOOKS.beforePut.set(() -> {
            try {
                removed.set(Files.deleteIfExists(file));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });

        ExecutionException failure = assertThrows(
                ExecutionException.class,
                () -> upload(file, UploadOptions.defaults()).get(30, TimeUnit.SECONDS));
        assertTrue(removed.get());
        assertInstanceOf(java.nio.file.NoSuchFileException.class, failure.getCause());
        assertFalse(stored());
    }
}
