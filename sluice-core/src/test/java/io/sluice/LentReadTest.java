package io.sluice;

import io.sluice.testing.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reads with lent chunks: what the pool promises, one promise a test. */
class LentReadTest {

    @TempDir
    Path dir;

    @Test
    void lentChunksAreDirectReusedAndExact() throws Exception {
        byte[] content = Bytes.random(1_000_000, 1);
        Path file = Bytes.file(dir, "source", content);
        ChunkPool pool = ChunkPool.create(64 * 1024, 4);
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        List<Boolean> direct = new ArrayList<>();
        Drain drain = new Drain(chunk -> {
            direct.add(chunk.isDirect());
            byte[] bytes = new byte[chunk.remaining()];
            chunk.get(bytes);
            received.write(bytes, 0, bytes.length);
            ChunkPool.giveBack(chunk);
        });
        ReactiveFile.of(file).read(ReadOptions.defaults().withLentChunks(pool)).subscribe(drain);
        drain.done.get(30, TimeUnit.SECONDS);

        assertArrayEquals(content, received.toByteArray());
        assertTrue(direct.stream().allMatch(isDirect -> isDirect), "every chunk is direct while the pool has room");
        assertEquals(1, pool.allocatedChunks(), "a consumer that gives back at once needs one buffer");
        assertEquals(1, pool.idleChunks());
        assertEquals(0, pool.overflowed());
    }

    @Test
    void misuseIsRefusedWithAMessage() throws Exception {
        Path file = Bytes.file(dir, "source", Bytes.random(10, 2));
        CollectingSubscriber subscriber = CollectingSubscriber.all();
        ReactiveFile.of(file)
                .read(ReadOptions.defaults().withLentChunks(ChunkPool.create(16, 2)))
                .subscribe(subscriber);
        assertTrue(subscriber.terminated.await(10, TimeUnit.SECONDS));
        ByteBuffer chunk = subscriber.chunks.get(0);

        IllegalArgumentException view =
                assertThrows(IllegalArgumentException.class, () -> ChunkPool.giveBack(chunk.duplicate()));
        assertTrue(view.getMessage().contains("not a lent chunk"), view.getMessage());
        ChunkPool.giveBack(chunk);
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> ChunkPool.giveBack(chunk));
        assertTrue(twice.getMessage().contains("given back already"), twice.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ChunkPool.giveBack(ByteBuffer.allocateDirect(16)));
        assertThrows(NullPointerException.class, () -> ChunkPool.giveBack(null));
        assertFalse(ChunkPool.isLent(chunk));
    }

    @Test
    void optionsRefuseAChunkLargerThanThePoolsAndBadPools() {
        ChunkPool pool = ChunkPool.create(1024, 2);
        ReadOptions lent = ReadOptions.defaults().withLentChunks(pool);
        assertEquals(1024, lent.chunkSizeBytes());
        assertSame(pool, lent.chunkPool());
        IllegalArgumentException larger = assertThrows(IllegalArgumentException.class, () -> lent.withChunkSize(1025));
        assertTrue(larger.getMessage().contains("1025"), larger.getMessage());
        assertEquals(512, lent.withChunkSize(512).chunkSizeBytes());
        assertNull(lent.withOwnedChunks().chunkPool());
        assertSame(
                ChunkPool.shared(64 * 1024),
                ReadOptions.defaults().withChunkSize(4096).withLentChunks().chunkPool());
        assertSame(
                ChunkPool.shared(256 * 1024),
                ReadOptions.defaults().withChunkSize(200_000).withLentChunks().chunkPool());
        assertEquals(
                4096,
                ReadOptions.defaults().withChunkSize(4096).withLentChunks().chunkSizeBytes());
        assertThrows(NullPointerException.class, () -> ReadOptions.defaults().withLentChunks(null));
        assertThrows(IllegalArgumentException.class, () -> ChunkPool.create(0, 1));
        assertThrows(IllegalArgumentException.class, () -> ChunkPool.create(1, 0));
        assertThrows(IllegalArgumentException.class, () -> ChunkPool.shared(-1));
    }

    @Test
    void aFullPoolLendsHeapChunksAndKeepsItsDirectBound() throws Exception {
        byte[] content = Bytes.random(100 * 1024, 3);
        Path file = Bytes.file(dir, "source", content);
        ChunkPool pool = ChunkPool.create(1024, 3);
        CollectingSubscriber hoarder = CollectingSubscriber.all(); // keeps every chunk, gives none back
        ReactiveFile.of(file).read(ReadOptions.defaults().withLentChunks(pool)).subscribe(hoarder);
        assertTrue(hoarder.terminated.await(10, TimeUnit.SECONDS));

        assertArrayEquals(content, Bytes.concat(hoarder.chunks), "held chunks keep their bytes");
        assertEquals(100, hoarder.chunks.size());
        assertTrue(pool.allocatedChunks() <= 3, pool.toString());
        assertTrue(pool.overflowed() >= 97, "chunks past the bound are heap: " + pool.overflowed());
        assertTrue(hoarder.chunks.stream().filter(ByteBuffer::isDirect).count() <= 3);
        for (ByteBuffer chunk : hoarder.chunks) {
            ChunkPool.giveBack(chunk); // heap ones too: every chunk is a loan
        }
        assertEquals(pool.allocatedChunks(), pool.idleChunks());
    }

    @Test
    void aChunkNeverGivenBackIsCollectedAndItsSlotComesBack() throws Exception {
        Path file = Bytes.file(dir, "source", Bytes.random(8 * 1024, 4));
        ChunkPool pool = ChunkPool.create(1024, 8);
        CollectingSubscriber dropper = CollectingSubscriber.all();
        ReactiveFile.of(file).read(ReadOptions.defaults().withLentChunks(pool)).subscribe(dropper);
        assertTrue(dropper.terminated.await(10, TimeUnit.SECONDS));
        assertEquals(8, pool.allocatedChunks());
        ByteBuffer kept = dropper.chunks.get(0).slice(); // a view outlives its chunk
        byte[] keptBytes = new byte[kept.remaining()];
        kept.duplicate().get(keptBytes);
        dropper.chunks.clear();

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (pool.allocatedChunks() > 1 && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(10);
        }
        assertEquals(1, pool.allocatedChunks(), "the slot under the live view stays lent, the rest come back");

        CollectingSubscriber again = CollectingSubscriber.all(); // the freed slots are lent again
        ReactiveFile.of(file).read(ReadOptions.defaults().withLentChunks(pool)).subscribe(again);
        assertTrue(again.terminated.await(10, TimeUnit.SECONDS));
        byte[] now = new byte[kept.remaining()];
        kept.duplicate().get(now);
        assertArrayEquals(keptBytes, now, "memory under a live view is never lent again");
        assertEquals(7, again.chunks.stream().filter(ByteBuffer::isDirect).count(), "the seven freed slots");
        assertEquals(1, pool.overflowed(), "the eighth chunk is heap: its slot is still under the view");
    }

    @Test
    void aChunkLargerThanTheSharedBudgetIsLentUnpooledAndNotKept() throws Exception {
        int chunkSize = 100 * 1024 * 1024;
        byte[] content = Bytes.random(3 * 1024 * 1024 + 5, 7);
        Path file = Bytes.file(dir, "source", content);
        ReadOptions options = ReadOptions.defaults().withChunkSize(chunkSize).withLentChunks();
        ChunkPool pool = options.chunkPool();
        long lentBefore = pool.lentChunks();
        long directBefore = directBytes();
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        List<ByteBuffer> givenBack = new ArrayList<>();
        List<String> oversized = new ArrayList<>(); // chunks of direct memory, or of more than twice their bytes
        Drain drain = new Drain(chunk -> {
            if (chunk.isDirect() || chunk.capacity() > 2L * chunk.remaining()) {
                oversized.add(chunk.toString());
            }
            byte[] bytes = new byte[chunk.remaining()];
            chunk.get(bytes);
            received.write(bytes, 0, bytes.length);
            ChunkPool.giveBack(chunk);
            givenBack.add(chunk);
        });
        ReactiveFile.of(file).read(options).subscribe(drain);
        drain.done.get(30, TimeUnit.SECONDS);

        assertArrayEquals(content, received.toByteArray());
        assertTrue(
                (long) pool.maxChunks() * pool.chunkSizeBytes() <= 64L << 20,
                "a shared pool holds at most 64 MiB: " + pool);
        assertEquals(0, pool.allocatedChunks(), "the pool keeps nothing of the read: " + pool);
        assertEquals(0, pool.idleChunks());
        assertEquals(givenBack.size(), pool.lentChunks() - lentBefore, "each chunk is still a loan");
        assertEquals(0, pool.overflowed(), "an unpooled chunk is not an overflow: the pool is not too small");
        assertEquals(List.of(), oversized, "each chunk is a heap buffer, with no more memory than twice its bytes");
        for (ByteBuffer chunk : givenBack) {
            assertFalse(ChunkPool.isLent(chunk));
            IllegalArgumentException twice =
                    assertThrows(IllegalArgumentException.class, () -> ChunkPool.giveBack(chunk));
            assertTrue(twice.getMessage().contains("given back already"), twice.getMessage());
        }

        givenBack.clear(); // dropped: the collector frees their memory
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (directBytes() - directBefore >= chunkSize / 2 && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(10);
        }
        assertTrue(
                directBytes() - directBefore < chunkSize / 2,
                "direct memory still held after the read: " + (directBytes() - directBefore)
                        + " bytes more than before, " + pool);
    }

    @Test
    void aStreamReadWithChunksLargerThanTheSharedBudgetLendsExactCopies() throws Exception {
        byte[] content = Bytes.random(300_000, 8);
        ReadOptions options =
                ReadOptions.defaults().withChunkSize(100 * 1024 * 1024).withLentChunks();
        ChunkPool pool = options.chunkPool();
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        List<String> oversized = new ArrayList<>(); // chunks of direct memory, or of more than twice their bytes
        Drain drain = new Drain(chunk -> {
            if (chunk.isDirect() || chunk.capacity() > 2L * chunk.remaining()) {
                oversized.add(chunk.toString());
            }
            byte[] bytes = new byte[chunk.remaining()];
            chunk.get(bytes);
            received.write(bytes, 0, bytes.length);
            ChunkPool.giveBack(chunk);
        });
        ByteStreams.publisher(new ByteArrayInputStream(content), options).subscribe(drain);
        drain.done.get(30, TimeUnit.SECONDS);

        assertArrayEquals(content, received.toByteArray());
        assertEquals(List.of(), oversized, "a small read is copied out into a direct chunk of its own size");
        assertEquals(0, pool.allocatedChunks(), pool.toString());
        assertEquals(0, pool.overflowed(), pool.toString());
    }

    @Test
    void channelAndStreamReadsLendChunksToo() throws Exception {
        byte[] content = "a pipe's bytes, lent".getBytes(StandardCharsets.UTF_8);
        ChunkPool pool = ChunkPool.create(8, 2);
        for (BytePublisher publisher : List.of(
                ByteStreams.publisher(
                        new ByteArrayInputStream(content),
                        ReadOptions.defaults().withLentChunks(pool)),
                ByteChannels.publisher(
                        Channels.newChannel(new ByteArrayInputStream(content)),
                        ReadOptions.defaults().withLentChunks(pool)))) {
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            Drain drain = new Drain(chunk -> {
                byte[] bytes = new byte[chunk.remaining()];
                chunk.get(bytes);
                received.write(bytes, 0, bytes.length);
                ChunkPool.giveBack(chunk);
            });
            publisher.subscribe(drain);
            drain.done.get(10, TimeUnit.SECONDS);
            assertArrayEquals(content, received.toByteArray());
        }
        assertEquals(pool.allocatedChunks(), pool.idleChunks());
    }

    @Test
    void writersGiveBackEveryLentChunk() throws Exception {
        byte[] content = Bytes.random(3 * 1024 * 1024 + 5, 5);
        Path source = Bytes.file(dir, "source", content);
        ChunkPool pool = ChunkPool.create(64 * 1024, 8);
        ReadOptions lent = ReadOptions.defaults().withLentChunks(pool);

        assertEquals(
                content.length,
                ReactiveFile.of(dir.resolve("file"))
                        .write(ReactiveFile.of(source).read(lent))
                        .toCompletableFuture()
                        .get(30, TimeUnit.SECONDS));
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        assertEquals(
                content.length,
                ByteStreams.write(stream, ReactiveFile.of(source).read(lent), WriteOptions.defaults())
                        .toCompletableFuture()
                        .get(30, TimeUnit.SECONDS));
        Path viaChannel = dir.resolve("channel");
        assertEquals(
                content.length,
                ByteChannels.write(
                                Files.newByteChannel(
                                        viaChannel,
                                        java.nio.file.StandardOpenOption.CREATE,
                                        java.nio.file.StandardOpenOption.WRITE),
                                ReactiveFile.of(source).read(lent),
                                WriteOptions.defaults())
                        .toCompletableFuture()
                        .get(30, TimeUnit.SECONDS));

        assertArrayEquals(content, Files.readAllBytes(dir.resolve("file")));
        assertArrayEquals(content, stream.toByteArray());
        assertArrayEquals(content, Files.readAllBytes(viaChannel));
        assertEquals(pool.allocatedChunks(), pool.idleChunks(), "every chunk back: " + pool);
        assertTrue(pool.allocatedChunks() <= 8, pool.toString());
    }

    @Test
    void anAtomicCopyGoesThroughLentChunksOfTheSharedPool() throws Exception {
        byte[] content = Bytes.random(2 * 1024 * 1024, 6);
        Path source = Bytes.file(dir, "source", content);
        ChunkPool shared = ChunkPool.shared(256 * 1024);
        long lentBefore = shared.lentChunks();
        ReactiveFile.of(source)
                .copyTo(dir.resolve("copy"), WriteOptions.defaults().withAtomicReplace())
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        assertArrayEquals(content, Files.readAllBytes(dir.resolve("copy")));
        assertTrue(shared.lentChunks() - lentBefore >= 8, "the copy borrowed its 256 KiB chunks");
        assertEquals(shared.allocatedChunks(), shared.idleChunks(), "and gave every one back");
    }

    @Test
    void aGibibyteThroughASlowConsumerIn64MiBOfHeapStaysInThePool() throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m",
                "-XX:MaxDirectMemorySize=32m",
                "-cp",
                System.getProperty("java.class.path"),
                LentReadChild.class.getName(),
                dir.toString()));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        child.getOutputStream().close();
        String output;
        try (var out = child.getInputStream()) {
            output = new String(out.readAllBytes(), StandardCharsets.UTF_8).trim();
        }
        assertTrue(child.waitFor(120, TimeUnit.SECONDS), "child JVM did not end");
        assertEquals(0, child.exitValue(), output);
        assertTrue(output.endsWith("ok"), output);
    }

    /** Direct memory in use by the JVM's direct buffers. */
    static long directBytes() {
        return ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
                .filter(pool -> pool.getName().equals("direct"))
                .mapToLong(BufferPoolMXBean::getMemoryUsed)
                .sum();
    }

    /** Requests everything and hands each chunk to {@code consumer}. */
    static final class Drain implements Subscriber<ByteBuffer> {
        final CompletableFuture<Void> done = new CompletableFuture<>();
        private final java.util.function.Consumer<ByteBuffer> consumer;

        Drain(java.util.function.Consumer<ByteBuffer> consumer) {
            this.consumer = consumer;
        }

        @Override
        public void onSubscribe(Subscription subscription) {
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(ByteBuffer chunk) {
            consumer.accept(chunk);
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
