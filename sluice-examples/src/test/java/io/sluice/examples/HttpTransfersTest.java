package io.sluice.examples;

import io.sluice.ReactiveFile;
import io.sluice.ReadOptions;
import io.sluice.WriteOptions;
import io.sluice.http.FileBodyHandler;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

class HttpTransfersTest {

    private static final int DOWNLOAD_BYTES = 7 * 1024 * 1024 + 3;
    private static final long UPLOAD_BYTES = 9L * 1024 * 1024 + 17;

    private static LoopbackHttpServer server;
    private static HttpClient client;

    @TempDir
    Path dir;

    @BeforeAll
    static void startServerAndClient() throws Exception {
        server = new LoopbackHttpServer(TestData.bytes(5, DOWNLOAD_BYTES));
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.stop();
    }

    @Test
    void uploadsAFileWithItsContentLengthAndTheServerReceivesTheSameBytes() throws Exception {
        Path file = TestData.file(dir.resolve("upload.bin"), 6, UPLOAD_BYTES);
        String expectedHex = HexFormat.of().formatHex(TestData.sha256(file));

        HttpResponse<String> response =
                HttpTransfers.upload(client, server.uri("/upload"), file).get(30, TimeUnit.SECONDS);

        assertEquals(200, response.statusCode());
        assertEquals(expectedHex + " " + UPLOAD_BYTES, response.body());
        LoopbackHttpServer.Upload seen = server.lastUpload();
        assertEquals(
                new LoopbackHttpServer.Upload(expectedHex, UPLOAD_BYTES, UPLOAD_BYTES),
                seen,
                "the server saw the file's bytes, announced by Content-Length (not chunked)");
    }

    @Test
    void downloadsThroughTheFileWriterAndTheFileHoldsTheServedBytes() throws Exception {
        Path file = dir.resolve("download.bin");

        HttpResponse<Long> response =
                HttpTransfers.download(client, server.uri("/download"), file).get(30, TimeUnit.SECONDS);

        assertEquals(200, response.statusCode());
        assertEquals(DOWNLOAD_BYTES, response.body());
        assertArrayEquals(server.downloadBytes(), Files.readAllBytes(file));
    }

    @Test
    void downloadWithOneByOneDemandStillDeliversEveryByte() throws Exception {
        Path file = dir.resolve("one-by-one.bin");
        HttpRequest request = HttpRequest.newBuilder(server.uri("/download")).build();

        HttpResponse<Long> response = client.send(
                request,
                FileBodyHandler.to(file, WriteOptions.defaults().withDemand(io.sluice.demand.Demand.oneByOne())));

        assertEquals(DOWNLOAD_BYTES, response.body());
        assertArrayEquals(server.downloadBytes(), Files.readAllBytes(file));
    }

    @Test
    void uploadsAByteRangeOfAFileWithTheRangeAsContentLength() throws Exception {
        Path file = TestData.file(dir.resolve("ranged.bin"), 13, UPLOAD_BYTES);
        long offset = 1_000_003;
        long length = 2L * 1024 * 1024 + 5;
        byte[] range = new byte[(int) length];
        System.arraycopy(Files.readAllBytes(file), (int) offset, range, 0, range.length);
        HttpRequest request = HttpRequest.newBuilder(server.uri("/upload"))
                .PUT(HttpRequest.BodyPublishers.fromPublisher(
                        ReactiveFile.of(file)
                                .read(ReadOptions.range(offset, length).withChunkSize(16 * 1024)),
                        length))
                .build();

        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());

        String expectedHex = HexFormat.of().formatHex(TestData.sha256(range));
        assertEquals(expectedHex + " " + length, response.body());
        assertEquals(new LoopbackHttpServer.Upload(expectedHex, length, length), server.lastUpload());
    }

    @Test
    void aDownloadIntoAMissingDirectoryFailsWithNoSuchFileException() {
        Path file = dir.resolve("no-such-dir").resolve("download.bin");

        ExecutionException failure = assertThrows(
                ExecutionException.class,
                () -> HttpTransfers.download(client, server.uri("/download"), file)
                        .get(30, TimeUnit.SECONDS));

        FileDigestsTest.assertCause(java.nio.file.NoSuchFileException.class, failure);
    }

    @Test
    void aNotFoundResponseFailsTheDownloadAndWritesNoFile() {
        Path file = dir.resolve("not-found.bin");

        ExecutionException failure = assertThrows(
                ExecutionException.class,
                () -> HttpTransfers.download(client, server.uri("/nothing-here"), file)
                        .get(30, TimeUnit.SECONDS));

        FileDigestsTest.assertCause(IOException.class, failure);
        assertFalse(Files.exists(file), "no file is created for an error response");
    }
}
