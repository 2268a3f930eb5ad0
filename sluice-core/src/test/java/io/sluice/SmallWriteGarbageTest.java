package io.sluice;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.Executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * A small file's write costs its fixed work, not a batch's worth of memory it never fills: a
 * one-item write of 1 KiB leaves a bounded amount of garbage on the thread that runs its drain,
 * everything included (the subscriber, its queue and ledger, the subscription). The write's drain
 * runs on the calling thread, whose allocation the JVM counts; the open and the close run on the
 * library's file threads and are not counted here.
 */
class SmallWriteGarbageTest {

    private static final int WRITES = 2_000;
    private static final Executor CALLING_THREAD = Runnable::run;
    /** A bound a one-item write's own objects fit in, below one full-size batch array (1,024 references). */
    private static final long AT_MOST_BYTES = 3 * 1024;

    @TempDir
    Path dir;

    @Test
    void aOneItemWriteOfOneKibLeavesLessGarbageThanAFullBatch() throws Exception {
        assumeFalse(Boolean.getBoolean("sluice.leakDetection"), "leak detection records a stack per loan");
        WriteOptions options = WriteOptions.defaults().withExecutor(CALLING_THREAD);
        ByteBuffer item = ByteBuffer.allocate(1024);
        for (int i = 0; i < WRITES * 5; i++) {                // until the JIT has compiled the write
            write(dir.resolve("warm-" + (i % 16)), item, options);
        }
        long garbage = 0;
        for (int i = 0; i < WRITES; i++) {
            garbage += write(dir.resolve("small-" + (i % 16)), item, options);
        }
        long perWrite = garbage / WRITES;

        assertTrue(perWrite <= AT_MOST_BYTES, "a one-item 1 KiB write allocated " + perWrite + " bytes on its drain's thread");
    }

    /** Writes {@code item} to {@code file} and returns what this thread allocated from subscribe to the last request. */
    private static long write(Path file, ByteBuffer item, WriteOptions options) throws Exception {
        OneItem source = new OneItem(item.duplicate());
        long before = ThreadAllocation.allocatedBytes();
        var written = ReactiveFile.of(file).write(source, options);
        long during = ThreadAllocation.allocatedBytes() - before;
        assertEquals(1024L, written.toCompletableFuture().get());
        return during;
    }

    /** Emits one item and completes, on the thread that requests it. */
    private static final class OneItem implements Publisher<ByteBuffer> {
        private final ByteBuffer item;

        OneItem(ByteBuffer item) {
            this.item = item;
        }

        @Override
        public void subscribe(Subscriber<? super ByteBuffer> subscriber) {
            subscriber.onSubscribe(new Subscription() {
                private boolean done;

                @Override
                public void request(long n) {
                    if (!done) {
                        done = true;
                        subscriber.onNext(item);
                        subscriber.onComplete();
                    }
                }

                @Override
                public void cancel() {
                    done = true;
                }
            });
        }
    }
}
