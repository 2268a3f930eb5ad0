package io.sluice.server;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code heapAllocatedBytes} of {@code /metrics} and the counter behind it ({@link AllocatedHeap}).
 * The server runs in the test's JVM, so what the test itself allocates counts too: the download's
 * body, read into a byte array, is a lower bound for the growth.
 */
@Timeout(60)
class AllocatedHeapTest {

    private static final int MIB = 1024 * 1024;

    // keeps each allocation reachable, so the JIT cannot remove it
    private static volatile byte[] kept;

    @TempDir
    Path directory;

    @Test
    void metricsReportHeapAllocatedWhichGrowsByAtLeastADownloadedBody() throws Exception {
        byte[] body = FileServerTest.randomBytes(8 * MIB, 7);
        Files.write(directory.resolve("big.bin"), body);
        try (FileServer server =
                FileServer.start(ServerConfig.loopback(Lane.A, directory).withPlatformThreads(16))) {
            long before = heapAllocatedBytes(server);
            assertTrue(before >= 0, "heapAllocatedBytes=" + before);

            RawHttp.Answer download = RawHttp.request(server.port(), "GET", "/files/big.bin");
            assertEquals(200, download.status());
            assertArrayEquals(body, download.bytes());

            long after = heapAllocatedBytes(server);
            assertTrue(
                    after - before >= body.length,
                    "allocated " + (after - before)
                            + " bytes across an 8 MiB download, read into a byte array in this JVM");
        }
    }

    @Test
    void countsWhatALiveThreadAllocated() throws Exception {
        CountDownLatch allocated = new CountDownLatch(1);
        CountDownLatch measured = new CountDownLatch(1);
        long before = AllocatedHeap.totalBytes();
        Thread thread = new Thread(
                () -> {
                    allocate(16);
                    allocated.countDown();
                    try {
                        measured.await(); // alive while measured: on JDK 17 only live threads count
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "allocating");
        thread.start();
        try {
            allocated.await();
            long after = AllocatedHeap.totalBytes();
            assertTrue(after - before >= 16L * MIB, "allocated " + (after - before) + " bytes, 16 MiB expected");
        } finally {
            measured.countDown();
            thread.join();
        }
    }

    @Test
    void countsWhatAnEndedThreadAllocatedOnJdk21() throws Exception {
        assumeTrue(Runtime.version().feature() >= 21, "JDK 17 sums the live threads only");
        long before = AllocatedHeap.totalBytes();
        Thread thread = new Thread(() -> allocate(16), "allocating");
        thread.start();
        thread.join();
        long after = AllocatedHeap.totalBytes();
        assertTrue(after - before >= 16L * MIB, "allocated " + (after - before) + " bytes, 16 MiB expected");
    }

    private static void allocate(int mebibytes) {
        for (int i = 0; i < mebibytes; i++) {
            kept = new byte[MIB];
        }
    }

    private static long heapAllocatedBytes(FileServer server) throws Exception {
        RawHttp.Answer metrics = RawHttp.request(server.port(), "GET", "/metrics");
        assertEquals(200, metrics.status());
        String value = null;
        for (String line : metrics.body().split("\n")) {
            if (line.startsWith("heapAllocatedBytes=")) {
                value = line.substring("heapAllocatedBytes=".length()).trim();
            }
        }
        assertNotNull(value, "no heapAllocatedBytes in /metrics:\n" + metrics.body());
        return Long.parseLong(value);
    }
}
