package io.sluice;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IoExecutorsTest {

    @Test
    void filePoolThreadsAreNamedDaemons() throws Exception {
        CompletableFuture<Thread> thread = new CompletableFuture<>();
        IoExecutors.files().execute(() -> thread.complete(Thread.currentThread()));
        Thread worker = thread.get(10, TimeUnit.SECONDS);
        assertTrue(worker.getName().startsWith("sluice-io-"), worker.getName());
        assertTrue(worker.isDaemon());
    }

    @Test
    void aNewFilePoolIsBoundedAndOwnedByTheCaller() throws Exception {
        assertThrows(IllegalArgumentException.class, () -> IoExecutors.newFilePool(0));
        ExecutorService pool = IoExecutors.newFilePool(2);
        try {
            CountDownLatch release = new CountDownLatch(1);
            Set<String> names = ConcurrentHashMap.newKeySet();
            List<CompletableFuture<Void>> tasks = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                tasks.add(CompletableFuture.runAsync(
                        () -> {
                            names.add(Thread.currentThread().getName());
                            try {
                                release.await();
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        },
                        pool));
            }
            Thread.sleep(100);
            assertEquals(2, ((ThreadPoolExecutor) pool).getActiveCount(), "two threads run, the rest queue");
            release.countDown();
            CompletableFuture.allOf(tasks.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
            assertTrue(names.stream().allMatch(name -> name.startsWith("sluice-files-")), names.toString());
            assertEquals(2, names.size(), names.toString());
        } finally {
            pool.shutdown();
        }
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS), "the caller's shutdown ends it");
    }

    @Test
    void blockingPoolIsSeparateFromTheFilePool() throws Exception {
        CompletableFuture<String> name = new CompletableFuture<>();
        IoExecutors.blocking()
                .execute(() -> name.complete(Thread.currentThread().getName()));
        assertTrue(name.get(10, TimeUnit.SECONDS).startsWith("sluice-blocking-"));
    }

    @Test
    void theFilePoolIsBoundedBySluiceIoThreads() throws Exception {
        assertEquals(
                "max=3 threads=3",
                runChild("-D" + IoExecutors.FILE_THREADS_PROPERTY + "=3"),
                "12 tasks at once on a pool of 3");
        int cores = Runtime.getRuntime().availableProcessors();
        int expected = Math.max(4, 2 * cores);
        assertEquals(
                "max=" + expected + " threads=" + expected,
                runChild(),
                "the default is twice the processors, at least 4");
    }

    @Test
    void aWriteOnAUserExecutorNeverTouchesTheSharedPool() throws Exception {
        assertEquals(
                "user-executor-ok",
                runChild(
                        "-D" + IoExecutors.FILE_THREADS_PROPERTY + "=many",
                        PoolSizeChild.class.getName(),
                        "user-executor"),
                "an invalid -Dsluice.io.threads matters only to writes that use the shared pool");
    }

    /** Runs {@link PoolSizeChild} in a fresh JVM (the shared pools are created once per JVM). */
    private static String runChild(String... jvmArgsThenMain) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path")));
        boolean mainGiven = false;
        for (String arg : jvmArgsThenMain) {
            mainGiven |= arg.equals(PoolSizeChild.class.getName());
            command.add(arg);
        }
        if (!mainGiven) {
            command.add(PoolSizeChild.class.getName());
        }
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        child.getOutputStream().close();
        String output;
        try (var out = child.getInputStream()) {
            output = new String(out.readAllBytes(), StandardCharsets.UTF_8).trim();
        }
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), "child JVM did not end");
        assertEquals(0, child.exitValue(), output);
        return output;
    }

    @Test
    void poolSizePropertyIsValidatedWithAClearMessage() {
        String previous = System.getProperty("test.pool.size");
        try {
            System.setProperty("test.pool.size", "many");
            assertEquals(
                    "-Dtest.pool.size must be a positive integer, was 'many'",
                    assertThrows(
                                    IllegalArgumentException.class,
                                    () -> IoExecutors.sizeFromProperty("test.pool.size", 4))
                            .getMessage());
            System.setProperty("test.pool.size", "0");
            assertThrows(IllegalArgumentException.class, () -> IoExecutors.sizeFromProperty("test.pool.size", 4));
            System.setProperty("test.pool.size", " 12 ");
            assertEquals(12, IoExecutors.sizeFromProperty("test.pool.size", 4));
            System.clearProperty("test.pool.size");
            assertEquals(4, IoExecutors.sizeFromProperty("test.pool.size", 4));
        } finally {
            if (previous != null) {
                System.setProperty("test.pool.size", previous);
            }
        }
    }

    @Test
    void virtualThreadsAreUsableWhereTheJdkHasThemAndRefusedClearlyWhereNot() throws Exception {
        boolean expected = Runtime.version().feature() >= 21;
        assertEquals(expected, IoExecutors.virtualThreadsAvailable());
        if (expected) {
            ExecutorService executor = IoExecutors.newVirtualThreadExecutor();
            try {
                java.nio.file.Path file = java.nio.file.Files.createTempFile("sluice", "vt");
                try {
                    long written = ReactiveFile.of(file)
                            .write(
                                    reactor.core.publisher.Flux.just(java.nio.ByteBuffer.wrap(new byte[] {1, 2, 3})),
                                    WriteOptions.defaults().withExecutor(executor))
                            .toCompletableFuture()
                            .get(10, TimeUnit.SECONDS);
                    assertEquals(3, written);
                } finally {
                    java.nio.file.Files.deleteIfExists(file);
                }
            } finally {
                executor.shutdown();
            }
        } else {
            UnsupportedOperationException exception =
                    assertThrows(UnsupportedOperationException.class, IoExecutors::newVirtualThreadExecutor);
            assertTrue(
                    exception.getMessage().startsWith("virtual threads need JDK 21 or newer"), exception.getMessage());
        }
    }
}
