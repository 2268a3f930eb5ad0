package io.sluice;

import io.sluice.testing.Bytes;
import io.sluice.testing.TestPublishers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * W7 and the drain's D6: a long write yields the executor whenever another task waits for it, so a
 * short write started later is not starved; while nothing waits, a long read keeps its thread.
 */
class FairnessTest {

    @TempDir
    Path dir;

    @Test
    void aShortWriteFinishesWhileALongWriteOnTheSameThreadIsStillRunning() throws Exception {
        shortWriteOvertakesLongWrite(Executors.newSingleThreadExecutor());
    }

    /** The pool is one the drain can see into (D6): its queued short write makes the long write yield. */
    @Test
    void aShortWriteQueuedOnAVisiblePoolOvertakesALongWrite() throws Exception {
        shortWriteOvertakesLongWrite(new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>()));
    }

    /**
     * D6: on a pool with idle threads and an empty queue, a 16 MiB read (a yield every 1 MiB)
     * delivers every chunk from one thread instead of handing itself to another thread at each yield.
     */
    @Test
    void aLongReadKeepsItsThreadWhileNoTaskWaits() throws Exception {
        Path file = Files.write(dir.resolve("sixteen"), Bytes.random(16 * 1024 * 1024, 7));
        ThreadPoolExecutor pool = new ThreadPoolExecutor(4, 4, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
        try {
            CollectingSubscriber subscriber = CollectingSubscriber.all();
            ReactiveFile.of(file)
                    .read(ReadOptions.defaults().withExecutor(pool))
                    .subscribe(subscriber);
            assertTrue(subscriber.terminated.await(60, TimeUnit.SECONDS), "the read ended");
            assertTrue(subscriber.completed, "completed, error: " + subscriber.error);
            assertEquals(256, subscriber.chunks.size());
            assertEquals(
                    1,
                    new HashSet<>(subscriber.threads).size(),
                    "threads that delivered chunks: " + new HashSet<>(subscriber.threads));
        } finally {
            pool.shutdownNow();
        }
    }

    private void shortWriteOvertakesLongWrite(ExecutorService single) throws Exception {
        try {
            byte[] large = Bytes.random(256 * 1024 * 1024 / 64, 1); // 4 MiB, repeated by the producer
            CompletableFuture<Long> longWrite = ReactiveFile.of(dir.resolve("long"))
                    .write(
                            TestPublishers.chunks(repeat(large, 48), 64 * 1024),
                            WriteOptions.defaults().withExecutor(single))
                    .toCompletableFuture();
            CompletableFuture<Long> shortWrite = ReactiveFile.of(dir.resolve("short"))
                    .write(
                            TestPublishers.chunks(new byte[1024], 1024),
                            WriteOptions.defaults().withExecutor(single))
                    .toCompletableFuture();
            shortWrite.get(60, TimeUnit.SECONDS);
            assertFalse(longWrite.isDone(), "the short write waited for the 192 MiB one to finish");
            longWrite.get(120, TimeUnit.SECONDS);
            assertTrue(longWrite.isDone());
        } finally {
            single.shutdownNow();
        }
    }

    private static byte[] repeat(byte[] block, int times) {
        byte[] all = new byte[block.length * times];
        for (int i = 0; i < times; i++) {
            System.arraycopy(block, 0, all, i * block.length, block.length);
        }
        return all;
    }
}
