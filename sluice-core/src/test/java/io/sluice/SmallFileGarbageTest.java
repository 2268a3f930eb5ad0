package io.sluice;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executor;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * A small file's read costs its fixed work, not garbage: a lent read of a 1 KiB file leaves no more
 * garbage than the file's size, everything included (the publisher, the subscription, the open,
 * the size, the close). Each read runs on the calling thread, whose allocation the JVM counts.
 */
class SmallFileGarbageTest {

    private static final int READS = 2_000;
    private static final Executor CALLING_THREAD = Runnable::run;

    @TempDir
    Path dir;

    @Test
    void aLentReadOfAOneKibFileLeavesNoMoreGarbageThanTheFile() throws Exception {
        assumeFalse(Boolean.getBoolean("sluice.leakDetection"), "leak detection records a stack per loan");
        Path file = Files.write(dir.resolve("small"), new byte[1024]);
        ReadOptions lent = ReadOptions.defaults().withLentChunks().withExecutor(CALLING_THREAD);
        for (int i = 0; i < READS * 5; i++) { // until the JIT has compiled the read
            read(file, lent);
        }
        long before = ThreadAllocation.allocatedBytes();
        for (int i = 0; i < READS; i++) {
            read(file, lent);
        }
        long perRead = (ThreadAllocation.allocatedBytes() - before) / READS;

        assertTrue(perRead <= 1024, "a lent read of a 1 KiB file allocated " + perRead + " bytes");
    }

    private static void read(Path file, ReadOptions options) throws IOException {
        Counting counting = new Counting();
        ReactiveFile.of(file).read(options).subscribe(counting);
        if (counting.bytes != 1024 || !counting.ended) { // no message built on the measured path
            fail("read " + counting.bytes + " bytes, ended: " + counting.ended + ", " + counting.error);
        }
    }

    /** Requests everything, counts the bytes and gives each chunk back. */
    private static final class Counting implements Subscriber<ByteBuffer> {
        long bytes;
        boolean ended;
        Throwable error;

        @Override
        public void onSubscribe(Subscription subscription) {
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(ByteBuffer chunk) {
            bytes += chunk.remaining();
            ChunkPool.giveBack(chunk);
        }

        @Override
        public void onError(Throwable failure) {
            error = failure;
            ended = true;
        }

        @Override
        public void onComplete() {
            ended = true;
        }
    }
}
