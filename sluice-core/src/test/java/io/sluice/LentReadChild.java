package io.sluice;

import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.io.RandomAccessFile;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Run by {@link LentReadTest} in a JVM of 64 MiB heap and 32 MiB direct memory: reads a 1 GiB
 * (sparse) file with chunks lent from a 2 MiB pool into a slow consumer that holds up to 16 chunks
 * and pauses every 256; checks the markers written every MiB, the peak direct memory (sampled) and
 * the heap allocated. Prints {@code ok} or throws.
 */
public final class LentReadChild {

    private static final long SIZE = 1L << 30;
    private static final int MIB = 1 << 20;
    private static final int POOL_CHUNKS = 32;
    private static final int CHUNK = 64 * 1024;

    private LentReadChild() {}

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]).resolve("gibibyte");
        try (RandomAccessFile out = new RandomAccessFile(file.toFile(), "rw")) {
            out.setLength(SIZE);
            for (long at = 0; at < SIZE; at += MIB) {
                out.seek(at);
                out.writeLong(at); // a marker per MiB; the rest is a hole of zeros
            }
        }
        ChunkPool pool = ChunkPool.create(CHUNK, POOL_CHUNKS);
        long allocatedBefore = allocated();
        SlowConsumer consumer = new SlowConsumer();
        ReactiveFile.of(file).read(ReadOptions.defaults().withLentChunks(pool)).subscribe(consumer);
        long peakDirect = 0;
        while (!consumer.done.isDone()) {
            peakDirect = Math.max(peakDirect, LentReadTest.directBytes());
            Thread.sleep(1);
        }
        consumer.done.get(60, TimeUnit.SECONDS);
        long allocated = allocated() - allocatedBefore;

        check(consumer.bytes == SIZE, "read " + consumer.bytes + " bytes, not " + SIZE);
        check(consumer.markers == SIZE / MIB, "found " + consumer.markers + " markers");
        check(pool.overflowed() == 0, "the pool overflowed " + pool.overflowed() + " times");
        check(
                peakDirect <= (long) POOL_CHUNKS * CHUNK,
                "direct memory peaked at " + peakDirect + " bytes, above the pool's " + (long) POOL_CHUNKS * CHUNK);
        check(allocated < 64L * MIB, "allocated " + allocated + " bytes of heap for 1 GiB read");
        System.out.println("direct peak " + peakDirect + ", heap allocated " + allocated + ", " + pool);
        System.out.println("ok");
    }

    /** Heap allocated by the live threads, through {@code com.sun.management.ThreadMXBean} (reflectively: a module test). */
    private static long allocated() throws ReflectiveOperationException {
        java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        java.lang.reflect.Method perThread =
                Class.forName("com.sun.management.ThreadMXBean").getMethod("getThreadAllocatedBytes", long.class);
        long sum = 0;
        for (long id : threads.getAllThreadIds()) {
            sum += Math.max(0, (long) perThread.invoke(threads, id));
        }
        return sum;
    }

    private static void check(boolean condition, String message) {
        if (!condition) {
            throw new AssertionError(message);
        }
    }

    /** Requests 16 at a time, holds them, gives them back in a batch, pauses 1 ms every 256 chunks. */
    static final class SlowConsumer implements Subscriber<ByteBuffer> {
        final CompletableFuture<Void> done = new CompletableFuture<>();
        final ArrayDeque<ByteBuffer> held = new ArrayDeque<>();
        Subscription subscription;
        long bytes;
        long markers;
        long chunks;

        @Override
        public void onSubscribe(Subscription subscription) {
            this.subscription = subscription;
            subscription.request(16);
        }

        @Override
        public void onNext(ByteBuffer chunk) {
            if (bytes % MIB == 0 && chunk.getLong(chunk.position()) == bytes) {
                markers++;
            }
            bytes += chunk.remaining();
            held.add(chunk);
            if (++chunks % 16 == 0) {
                for (ByteBuffer back; (back = held.poll()) != null; ) {
                    ChunkPool.giveBack(back);
                }
                if (chunks % 256 == 0) {
                    try {
                        Thread.sleep(1);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                subscription.request(16);
            }
        }

        @Override
        public void onError(Throwable error) {
            done.completeExceptionally(error);
        }

        @Override
        public void onComplete() {
            done.complete(null);
        }
    }
}
