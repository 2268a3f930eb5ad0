package io.sluice.server;

import io.sluice.testkit.OpenFiles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Lane C's download path: every filesystem call runs on the file executor (never on Jetty's
 * threads), the answer's length comes from the file that was opened, and no descriptor of a
 * served file stays open.
 */
@Timeout(60)
class LaneCDownloadTest {

    @TempDir
    Path directory;

    private final ExecutorService filesThread =
            Executors.newSingleThreadExecutor(task -> new Thread(task, "test-files"));

    @AfterEach
    void stopExecutor() throws InterruptedException {
        filesThread.shutdownNow();
        assertTrue(filesThread.awaitTermination(10, TimeUnit.SECONDS), "the test's file executor did not stop");
    }

    /**
     * The file exists when the request arrives and is deleted while the download's first task waits
     * for the (held) file executor. If the handler thread had looked the file up itself, the answer
     * would already be committed to 200; since the lookup happens on the executor, it is 404.
     */
    @Test
    void theFileIsLookedUpOnTheFileExecutorNotOnJettysThread() throws Exception {
        Path file = directory.resolve("small.bin");
        Files.write(file, FileServerTest.randomBytes(16 * 1024, 3));
        CountDownLatch submitted = new CountDownLatch(1);
        CountDownLatch gate = new CountDownLatch(1);
        Executor held = task -> {
            submitted.countDown();
            filesThread.execute(() -> {
                if (opened(gate)) {
                    task.run();
                }
            });
        };
        try (FileServer server = FileServer.start(ServerConfig.loopback(Lane.C, directory), held)) {
            CompletableFuture<RawHttp.Answer> answer =
                    CompletableFuture.supplyAsync(() -> get(server, "/files/small.bin", ""));
            assertTrue(submitted.await(10, TimeUnit.SECONDS), "the download never reached the file executor");
            Files.delete(file);
            gate.countDown();
            RawHttp.Answer missing = answer.get(10, TimeUnit.SECONDS);
            assertEquals(404, missing.status(), missing.body());
            assertTrue(missing.body().contains("no such file: small.bin"), missing.body());
        }
    }

    /**
     * 8 MiB cannot be written synchronously into a loopback socket, so some writes complete later
     * on a Jetty thread, whose {@code request(1)} signals the next read pass. Those passes must go
     * to the file executor, not run on the Jetty thread: only the first pass runs inline, on the
     * file-executor thread that opened the file.
     */
    @Test
    void readPassesSignalledFromJettyThreadsRunOnTheFileExecutor() throws Exception {
        byte[] body = FileServerTest.randomBytes(8 * 1024 * 1024, 4);
        Files.write(directory.resolve("data.bin"), body);
        List<String> threads = java.util.Collections.synchronizedList(new ArrayList<>());
        Executor recording = task -> filesThread.execute(() -> {
            threads.add(Thread.currentThread().getName());
            task.run();
        });
        try (FileServer server = FileServer.start(ServerConfig.loopback(Lane.C, directory), recording)) {
            RawHttp.Answer whole = get(server, "/files/data.bin", "");
            assertEquals(200, whole.status());
            assertEquals(String.valueOf(body.length), whole.header("Content-Length"));
            assertArrayEquals(body, whole.bytes());
        }
        // the open-and-size task (with the first pass inline) plus the passes after asynchronous writes
        assertTrue(threads.size() >= 2, "tasks on the file executor: " + threads.size());
    }

    @Test
    void emptyFilesAndRangesAnswerWithTheRightLength() throws Exception {
        Files.write(directory.resolve("empty.bin"), new byte[0]);
        byte[] body = FileServerTest.randomBytes(100_000, 5);
        Files.write(directory.resolve("data.bin"), body);
        try (FileServer server = FileServer.start(ServerConfig.loopback(Lane.C, directory), filesThread)) {
            RawHttp.Answer empty = get(server, "/files/empty.bin", "");
            assertEquals(200, empty.status());
            assertEquals("0", empty.header("Content-Length"));
            assertEquals(0, empty.bytes().length);

            RawHttp.Answer last = get(server, "/files/data.bin", "Range: bytes=99999-\r\n");
            assertEquals(206, last.status());
            assertEquals("1", last.header("Content-Length"));
            assertEquals("bytes 99999-99999/100000", last.header("Content-Range"));
            assertArrayEquals(new byte[] {body[99_999]}, last.bytes());

            RawHttp.Answer tooFar = get(server, "/files/data.bin", "Range: bytes=100000-\r\n");
            assertEquals(416, tooFar.status());
            assertEquals("bytes */100000", tooFar.header("Content-Range"));
        }
    }

    /**
     * After each answer has been read in full, no descriptor of this process points into the data
     * directory: the publisher closes the channel before it completes (so before the last write),
     * the 404/416 paths close it (or never opened it) before answering, and a directory, which opens
     * but cannot be read, fails with 500 through the publisher's {@code onError}, which closes it.
     */
    @Test
    void noDescriptorOfAServedFileStaysOpen() throws Exception {
        byte[] body = FileServerTest.randomBytes(300_000, 6);
        Files.write(directory.resolve("data.bin"), body);
        Files.createDirectory(directory.resolve("adir")); // opens, but its read fails: 500
        try (FileServer server = FileServer.start(ServerConfig.loopback(Lane.C, directory), filesThread)) {
            for (int i = 0; i < 20; i++) {
                assertEquals(500, get(server, "/files/adir", "").status());
                assertEquals(200, get(server, "/files/data.bin", "").status());
                assertEquals(
                        206,
                        get(server, "/files/data.bin", "Range: bytes=10-20\r\n").status());
                assertEquals(
                        416,
                        get(server, "/files/data.bin", "Range: bytes=400000-\r\n")
                                .status());
                assertEquals(404, get(server, "/files/missing.bin", "").status());
            }
            assertEquals(List.of(), OpenFiles.under(directory));
        }
    }

    private static RawHttp.Answer get(FileServer server, String target, String headers) {
        try {
            return RawHttp.request(server.port(), "GET", target, headers);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Waits for the gate; an interrupt (the executor shut down after a failed test) skips the task. */
    private static boolean opened(CountDownLatch gate) {
        try {
            gate.await();
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
