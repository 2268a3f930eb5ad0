package io.sluice.server;

import io.sluice.ChunkPool;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Lanes C and C-unbounded read downloads into chunks lent from the server's pool
 * ({@link FileServer#downloadChunks()}) and give every one back once Jetty has written it, whatever
 * the client does: reads a whole file, a range, resets the connection mid-body, or reads slowly.
 *
 * <p>"Every chunk back" is the pool's own count: each buffer it allocated is idle again. A buffer
 * becomes idle only when its chunk is given back (one dropped instead is collected and leaves the
 * count), so the tests also require idle buffers and, on one connection, few of them for many
 * chunks lent.
 */
@Timeout(120)
class LaneCLentChunksTest {

    private static final int CHUNK_BYTES = FileServer.DOWNLOAD_CHUNK_BYTES;

    @TempDir
    Path directory;

    static Stream<Lane> lanes() {
        return Stream.of(Lane.C, Lane.C_UNBOUNDED);
    }

    private FileServer start(Lane lane) throws Exception {
        return FileServer.start(ServerConfig.loopback(lane, directory));
    }

    @ParameterizedTest
    @MethodSource("lanes")
    void wholeFileDownloadsGiveEveryChunkBack(Lane lane) throws Exception {
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("empty.bin", new byte[0]);
        files.put("small.bin", FileServerTest.randomBytes(16 * 1024, 1)); // one chunk, smaller than a buffer
        files.put("odd.bin", FileServerTest.randomBytes(1_000_003, 2)); // a short last chunk
        files.put("large.bin", FileServerTest.randomBytes(8 * 1024 * 1024, 3));
        for (Map.Entry<String, byte[]> file : files.entrySet()) {
            Files.write(directory.resolve(file.getKey()), file.getValue());
        }
        try (FileServer server = start(lane)) {
            ChunkPool pool = server.downloadChunks();
            long chunks = 0;
            for (Map.Entry<String, byte[]> file : files.entrySet()) {
                RawHttp.Answer answer = RawHttp.request(server.port(), "GET", "/files/" + file.getKey());
                assertEquals(200, answer.status(), file.getKey());
                assertArrayEquals(file.getValue(), answer.bytes(), file.getKey());
                chunks += chunksOf(file.getValue().length);
                awaitEveryChunkBack(pool);
            }
            assertGivenBack(pool, chunks);
        }
    }

    /**
     * Jetty reads a connection's next request only once the previous response completed, which is
     * after its last chunk came back: ten downloads in a row reuse one download's worth of buffers
     * (two for lane C's window, the whole file for C-unbounded). Chunks that were not given back
     * would each have needed a buffer of their own.
     */
    @ParameterizedTest
    @MethodSource("lanes")
    void downloadsOnOneConnectionReuseTheSameFewBuffers(Lane lane) throws Exception {
        byte[] body = FileServerTest.randomBytes(1_000_003, 4);
        Files.write(directory.resolve("odd.bin"), body);
        int downloads = 10;
        try (FileServer server = start(lane);
                RawHttp http = new RawHttp(server.port())) {
            ChunkPool pool = server.downloadChunks();
            for (int i = 0; i < downloads; i++) {
                http.send("GET /files/odd.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
                RawHttp.Answer answer = http.readAnswer();
                assertEquals(200, answer.status(), "request " + i);
                assertArrayEquals(body, answer.bytes(), "request " + i);
            }
            assertGivenBack(pool, downloads * chunksOf(body.length));
            int bound = lane == Lane.C ? 2 : chunksOf(body.length);
            assertTrue(
                    pool.allocatedChunks() <= bound,
                    "at most " + bound + " buffers for " + pool.lentChunks() + " chunks lent: " + pool);
        }
    }

    @ParameterizedTest
    @MethodSource("lanes")
    void concurrentDownloadsGiveEveryChunkBack(Lane lane) throws Exception {
        byte[] body = FileServerTest.randomBytes(2 * 1024 * 1024 + 17, 5);
        Files.write(directory.resolve("shared.bin"), body);
        int clients = 8;
        ExecutorService executor = Executors.newFixedThreadPool(clients);
        try (FileServer server = start(lane)) {
            ChunkPool pool = server.downloadChunks();
            List<Future<RawHttp.Answer>> answers = new ArrayList<>();
            for (int i = 0; i < 2 * clients; i++) {
                answers.add(executor.submit(() -> RawHttp.request(server.port(), "GET", "/files/shared.bin")));
            }
            for (Future<RawHttp.Answer> answer : answers) {
                RawHttp.Answer done = answer.get(60, TimeUnit.SECONDS);
                assertEquals(200, done.status());
                assertArrayEquals(body, done.bytes());
            }
            assertGivenBack(pool, 2L * clients * chunksOf(body.length));
        } finally {
            executor.shutdownNow();
        }
    }

    @ParameterizedTest
    @MethodSource("lanes")
    void rangeDownloadsGiveEveryChunkBack(Lane lane) throws Exception {
        byte[] body = FileServerTest.randomBytes(1_000_003, 6);
        Files.write(directory.resolve("data.bin"), body);
        try (FileServer server = start(lane)) {
            ChunkPool pool = server.downloadChunks();
            long chunks = 0;
            long[][] ranges = { // offset, length, as the Range header below asks
                {70_000, 100},
                {body.length - 10, 10},
                {999_990, body.length - 999_990},
                {65_530, 134_471}, // three chunks, none aligned with the file's 64 KiB blocks
                {0, body.length},
            };
            String[] headers = {"bytes=70000-70099", "bytes=-10", "bytes=999990-", "bytes=65530-200000", "bytes=0-"};
            for (int i = 0; i < ranges.length; i++) {
                RawHttp.Answer answer =
                        RawHttp.request(server.port(), "GET", "/files/data.bin", "Range: " + headers[i] + "\r\n");
                assertEquals(206, answer.status(), headers[i]);
                assertArrayEquals(slice(body, ranges[i][0], ranges[i][1]), answer.bytes(), headers[i]);
                chunks += chunksOf(ranges[i][1]);
                awaitEveryChunkBack(pool);
            }
            long lent = pool.lentChunks();
            assertEquals(
                    416,
                    RawHttp.request(server.port(), "GET", "/files/data.bin", "Range: bytes=" + body.length + "-\r\n")
                            .status());
            assertEquals(lent, pool.lentChunks(), "an unsatisfiable range reads nothing");
            assertGivenBack(pool, chunks);
        }
    }

    /**
     * A client asks for 32 MiB, reads the headers (then nothing, or 1 MiB) and resets the
     * connection. Its small receive buffer and the server's send buffer hold a few MiB, so lane C is
     * mid-file with a write pending: the write fails, and the chunk Jetty was writing, the one
     * waiting and any that arrive after the cancel all come back. C-unbounded has queued most of
     * the file by then; the queue comes back too.
     */
    @ParameterizedTest
    @MethodSource("lanes")
    void aClientThatResetsMidBodyGetsEveryChunkBack(Lane lane) throws Exception {
        byte[] body = FileServerTest.randomBytes(32 * 1024 * 1024, 7);
        Files.write(directory.resolve("big.bin"), body);
        try (FileServer server = start(lane)) {
            ChunkPool pool = server.downloadChunks();
            for (int cut : new int[] {0, 1024 * 1024}) {
                try (RawHttp http = new RawHttp(server.port(), 64 * 1024)) {
                    http.send("GET /files/big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
                    String head = http.readHead();
                    assertTrue(head.startsWith("HTTP/1.1 200"), head);
                    assertArrayEquals(slice(body, 0, cut), http.input().readNBytes(cut));
                    http.abort();
                }
                awaitEveryChunkBack(pool);
            }
            if (lane == Lane.C) {
                assertTrue(
                        pool.lentChunks() < chunksOf(body.length),
                        "both downloads were cut mid-file: " + pool.lentChunks() + " chunks lent for two of "
                                + chunksOf(body.length));
            }
            assertEquals(0, pool.overflowed(), "heap chunks lent: " + pool);
            RawHttp.Answer whole = RawHttp.request(server.port(), "GET", "/files/big.bin"); // the server goes on
            assertEquals(200, whole.status());
            assertArrayEquals(body, whole.bytes());
            assertGivenBack(pool, chunksOf(body.length));
        }
    }

    /**
     * A client with a 64 KiB receive buffer reads 6 MiB in 16 KiB steps with a pause after each, so
     * many of the server's writes complete later, on Jetty's threads. Lane C never has more than
     * two chunks out (one written, one waiting), so its pool never grows past two buffers.
     */
    @ParameterizedTest
    @MethodSource("lanes")
    void aSlowClientGetsEveryChunkBackWithoutHeapChunks(Lane lane) throws Exception {
        byte[] body = FileServerTest.randomBytes(6 * 1024 * 1024, 8);
        Files.write(directory.resolve("slow.bin"), body);
        try (FileServer server = start(lane);
                RawHttp http = new RawHttp(server.port(), 64 * 1024)) {
            ChunkPool pool = server.downloadChunks();
            http.send("GET /files/slow.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
            String head = http.readHead();
            assertTrue(head.startsWith("HTTP/1.1 200"), head);
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            InputStream in = http.input();
            byte[] step = new byte[16 * 1024];
            for (int read; received.size() < body.length && (read = in.read(step)) > 0; ) {
                received.write(step, 0, read);
                Thread.sleep(2);
            }
            assertArrayEquals(body, received.toByteArray());
            assertGivenBack(pool, chunksOf(body.length));
            int bound = lane == Lane.C ? 2 : chunksOf(body.length);
            assertTrue(pool.allocatedChunks() <= bound, "at most " + bound + " buffers: " + pool);
        }
    }

    /** Waits (10 s at most) until every buffer the pool allocated is idle, then asserts it. */
    static void awaitEveryChunkBack(ChunkPool pool) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (pool.allocatedChunks() != pool.idleChunks() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(pool.allocatedChunks(), pool.idleChunks(), "chunks still out after 10 s: " + pool);
    }

    /**
     * Every chunk back, at least {@code chunks} lent (none at all before lane C read lent chunks),
     * some buffers idle (given back, not collected) and none of them heap chunks lent past the bound.
     */
    private static void assertGivenBack(ChunkPool pool, long chunks) throws InterruptedException {
        awaitEveryChunkBack(pool);
        assertTrue(pool.lentChunks() >= chunks, "expected at least " + chunks + " chunks lent: " + pool);
        assertTrue(pool.idleChunks() > 0, "no buffer came back: " + pool);
        assertEquals(0, pool.overflowed(), "heap chunks lent: " + pool);
    }

    private static int chunksOf(long bytes) {
        return (int) ((bytes + CHUNK_BYTES - 1) / CHUNK_BYTES);
    }

    private static byte[] slice(byte[] bytes, long offset, long length) {
        byte[] slice = new byte[(int) length];
        System.arraycopy(bytes, (int) offset, slice, 0, (int) length);
        return slice;
    }
}
