package io.sluice;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
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
    void blockingPoolIsSeparateFromTheFilePool() throws Exception {
        CompletableFuture<String> name = new CompletableFuture<>();
        IoExecutors.blocking().execute(() -> name.complete(Thread.currentThread().getName()));
        assertTrue(name.get(10, TimeUnit.SECONDS).startsWith("sluice-blocking-"));
    }

    @Test
    void poolSizePropertyIsValidatedWithAClearMessage() {
        String previous = System.getProperty("test.pool.size");
        try {
            System.setProperty("test.pool.size", "many");
            assertEquals("-Dtest.pool.size must be a positive integer, was 'many'",
                    assertThrows(IllegalArgumentException.class,
                            () -> IoExecutors.sizeFromProperty("test.pool.size", 4)).getMessage());
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
                    long written = ReactiveFile.of(file).write(reactor.core.publisher.Flux.just(
                            java.nio.ByteBuffer.wrap(new byte[] {1, 2, 3})),
                            WriteOptions.defaults().withExecutor(executor)).toCompletableFuture().get(10, TimeUnit.SECONDS);
                    assertEquals(3, written);
                } finally {
                    java.nio.file.Files.deleteIfExists(file);
                }
            } finally {
                executor.shutdown();
            }
        } else {
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                    IoExecutors::newVirtualThreadExecutor);
            assertTrue(e.getMessage().startsWith("virtual threads need JDK 21 or newer"), e.getMessage());
        }
    }
}
