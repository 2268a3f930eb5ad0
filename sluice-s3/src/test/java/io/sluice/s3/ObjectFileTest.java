package io.sluice.s3;

import io.sluice.WriteOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Object to file through the core's atomic writer, verified against the ETag (B4); file to object. */
class ObjectFileTest {

    static final int MIB = 1024 * 1024;
    static final String BUCKET = "files";

    static S3ProxyServer server;
    static S3AsyncClient client;
    static final AtomicBoolean CORRUPT_ETAG = new AtomicBoolean();

    /** Replaces a GetObject response's ETag with the MD5 of other bytes, while armed. */
    static final class WrongETag implements ExecutionInterceptor {
        @Override
        public SdkHttpResponse modifyHttpResponse(Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
            if (CORRUPT_ETAG.get()
                    && context.request() instanceof software.amazon.awssdk.services.s3.model.GetObjectRequest) {
                return context.httpResponse().toBuilder()
                        .putHeader("ETag", "\"0123456789abcdef0123456789abcdef\"")
                        .build();
            }
            return context.httpResponse();
        }
    }

    @TempDir
    Path directory;

    @BeforeAll
    static void start() throws Exception {
        server = S3ProxyServer.start();
        client = server.newClient(new WrongETag());
        client.createBucket(request -> request.bucket(BUCKET)).join();
    }

    @AfterAll
    static void stop() throws Exception {
        client.close();
        server.close();
    }

    @BeforeEach
    void disarm() {
        CORRUPT_ETAG.set(false);
    }

    private List<Path> filesIn(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.toList();
        }
    }

    @Test
    void downloadsASinglePartObjectAtomicallyAndVerified() throws Exception {
        byte[] content = Bodies.bytes(3 * MIB + 1);
        client.putObject(request -> request.bucket(BUCKET).key("single"), AsyncRequestBody.fromBytes(content))
                .join();
        Path target = directory.resolve("single.bin");
        Files.writeString(target, "old");

        long written = ReactiveObject.of(client, BUCKET, "single")
                .downloadTo(target)
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS);

        assertEquals(content.length, written);
        assertArrayEquals(content, Files.readAllBytes(target));
        assertEquals(List.of(target), filesIn(directory), "no temporary left beside the target");
    }

    @Test
    void downloadsAMultipartObject() throws Exception {
        ReactiveObject object = ReactiveObject.of(client, BUCKET, "multipart");
        UploadResult stored = object.write(
                        new Bodies.Generated(11 * MIB, 100_000),
                        UploadOptions.defaults().withPartSize(5 * MIB))
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        assertEquals(3, stored.parts());
        Path target = directory.resolve("multipart.bin");

        object.downloadTo(target, WriteOptions.defaults().withAtomicReplace().withSync())
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS);

        assertEquals(11 * MIB, Files.size(target));
        assertEquals(
                Bodies.md5Of(11 * MIB) + "/" + 11 * MIB,
                Bodies.md5(io.sluice.ReactiveFile.of(target).read()).get(10, TimeUnit.SECONDS));
    }

    @Test
    void aDownloadWhoseBytesDoNotMatchTheETagLeavesTheTargetAsItWas_B4() throws Exception {
        client.putObject(
                        request -> request.bucket(BUCKET).key("checked"),
                        AsyncRequestBody.fromBytes(Bodies.bytes(100_000)))
                .join();
        Path target = directory.resolve("checked.bin");
        Files.writeString(target, "old");
        CORRUPT_ETAG.set(true);

        ExecutionException failure = assertThrows(
                ExecutionException.class,
                () -> ReactiveObject.of(client, BUCKET, "checked")
                        .downloadTo(target)
                        .toCompletableFuture()
                        .get(30, TimeUnit.SECONDS));

        assertInstanceOf(IOException.class, failure.getCause());
        assertTrue(
                failure.getCause().getMessage().contains("MD5"),
                failure.getCause().getMessage());
        assertEquals("old", Files.readString(target, StandardCharsets.UTF_8));
        assertEquals(List.of(target), filesIn(directory), "the core removed its temporary");
    }

    @Test
    void downloadingAMissingKeyFailsAndCreatesNoFile() throws Exception {
        Path target = directory.resolve("never.bin");
        ExecutionException failure = assertThrows(
                ExecutionException.class,
                () -> ReactiveObject.of(client, BUCKET, "missing")
                        .downloadTo(target)
                        .toCompletableFuture()
                        .get(30, TimeUnit.SECONDS));
        assertInstanceOf(NoSuchKeyException.class, failure.getCause());
        assertEquals(List.of(), filesIn(directory));
    }

    @Test
    void uploadsAFileInPartsAndSmallFilesInOnePut() throws Exception {
        Path big = directory.resolve("big.bin");
        Files.write(big, Bodies.bytes(11 * MIB + 3));
        Path small = directory.resolve("small.bin");
        Files.write(small, Bodies.bytes(1000));

        io.sluice.ChunkPool pool = io.sluice.ChunkPool.sharedFor(io.sluice.ReadOptions.DEFAULT_CHUNK_SIZE_BYTES);
        long lentBefore = pool.lentChunks();

        UploadResult bigStored = ReactiveObject.of(client, BUCKET, "from-big-file")
                .upload(big, UploadOptions.defaults().withPartSize(5 * MIB))
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        UploadResult smallStored = ReactiveObject.of(client, BUCKET, "from-small-file")
                .upload(small, UploadOptions.defaults())
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS);

        assertEquals(lentBefore, pool.lentChunks(), "O10, O12: the SDK read the file; no chunk was lent to copy it");
        assertEquals(3, bigStored.parts());
        assertEquals(11 * MIB + 3, bigStored.bytes());
        assertEquals(1, smallStored.parts());
        assertEquals(
                Bodies.md5Of(11 * MIB + 3) + "/" + (11 * MIB + 3),
                Bodies.md5(ReactiveObject.of(client, BUCKET, "from-big-file").read())
                        .get(10, TimeUnit.SECONDS));
        assertEquals(0, S3ProxyServer.openUploads(client, BUCKET));
    }

    @Test
    void uploadingAMissingFileFailsWithNoSuchFileException() {
        ExecutionException failure = assertThrows(
                ExecutionException.class,
                () -> ReactiveObject.of(client, BUCKET, "none")
                        .upload(directory.resolve("absent"), UploadOptions.defaults())
                        .toCompletableFuture()
                        .get(10, TimeUnit.SECONDS));
        assertInstanceOf(NoSuchFileException.class, failure.getCause());
    }
}
