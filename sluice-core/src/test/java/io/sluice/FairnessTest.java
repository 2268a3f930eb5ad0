package io.sluice;

import io.sluice.testing.Bytes;
import io.sluice.testing.TestPublishers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** W7: a long write yields the executor, so a short write started later is not starved. */
class FairnessTest {

    @TempDir
    Path dir;

    @Test
    void aShortWriteFinishesWhileALongWriteOnTheSameThreadIsStillRunning() throws Exception {
        ExecutorService single = Executors.newSingleThreadExecutor();
        try {
            byte[] large = Bytes.random(256 * 1024 * 1024 / 64, 1);     // 4 MiB, repeated by the producer
            CompletableFuture<Long> longWrite = ReactiveFile.of(dir.resolve("long"))
                    .write(TestPublishers.chunks(repeat(large, 48), 64 * 1024),
                            WriteOptions.defaults().withExecutor(single)).toCompletableFuture();
            CompletableFuture<Long> shortWrite = ReactiveFile.of(dir.resolve("short"))
                    .write(TestPublishers.chunks(new byte[1024], 1024),
                            WriteOptions.defaults().withExecutor(single)).toCompletableFuture();
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
