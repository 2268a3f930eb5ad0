package io.sluice;

import io.sluice.testing.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Flux;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A slice or duplicate of a lent chunk is a view, not the loan (see {@link ChunkPool}): refused by
 * a give-back with a message that says what to give back, written as an owned buffer by a writer,
 * and never the cause of memory lent twice.
 */
class SlicedLentChunksTest {

    @TempDir
    Path dir;

    @Test
    void aSliceOrDuplicateIsNotLentAndItsGiveBackSaysToGiveBackTheChunk() {
        ByteBuffer chunk = ChunkPool.lend(ByteBuffer.allocate(8), () -> {});
        for (ByteBuffer view : List.of(chunk.slice(), chunk.duplicate(), chunk.asReadOnlyBuffer())) {
            assertFalse(ChunkPool.isLent(view));
            IllegalArgumentException refused =
                    assertThrows(IllegalArgumentException.class, () -> ChunkPool.giveBack(view));
            assertTrue(refused.getMessage().contains("slice() or duplicate() of a lent chunk"), refused.getMessage());
            assertTrue(refused.getMessage().contains("give back the chunk that was lent itself"), refused.getMessage());
        }
        assertTrue(ChunkPool.isLent(chunk), "refusing a view leaves the chunk lent");
        ChunkPool.giveBack(chunk);
        assertFalse(ChunkPool.isLent(chunk));
    }

    @Test
    void aWriterFedSlicesOfLentChunksWritesTheirBytesGivesNothingBackAndHeldMemoryIsNeverReused() throws Exception {
        byte[] content = Bytes.random(64 * 1024, 21);
        Path source = Bytes.file(dir, "source", content);
        Path target = dir.resolve("target");
        ChunkPool pool = ChunkPool.create(1024, 4);
        ReadOptions lent = ReadOptions.defaults().withLentChunks(pool);
        List<ByteBuffer> kept = new CopyOnWriteArrayList<>();
        Flux<ByteBuffer> slices = Flux.from(ReactiveFile.of(source).read(lent))
                .map(ByteBuffer::slice)
                .doOnNext(slice -> {
                    if (kept.isEmpty() && slice.isDirect()) {
                        kept.add(slice); // a holder downstream keeps one view
                    }
                });

        assertEquals(
                content.length,
                ReactiveFile.of(target).write(slices).toCompletableFuture().get(30, TimeUnit.SECONDS));
        assertArrayEquals(content, Files.readAllBytes(target), "the slices' bytes, written as owned buffers");
        assertEquals(0, pool.idleChunks(), "the writer gave back nothing: it received views, not loans");
        assertEquals(1, kept.size());
        ByteBuffer view = kept.get(0);
        byte[] viewBytes = new byte[view.remaining()];
        view.duplicate().get(viewBytes);
        assertArrayEquals(Arrays.copyOfRange(content, 0, viewBytes.length), viewBytes);

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (pool.allocatedChunks() > 1 && System.nanoTime() < deadline) {
            System.gc(); // the chunks nobody gave back become garbage
            Thread.sleep(10);
        }
        assertEquals(1, pool.allocatedChunks(), "only the memory under the kept view is still counted: " + pool);

        CollectingSubscriber hoarder = CollectingSubscriber.all(); // the pool lends its memory again
        ReactiveFile.of(source).read(lent).subscribe(hoarder);
        assertTrue(hoarder.terminated.await(30, TimeUnit.SECONDS));
        assertArrayEquals(content, Bytes.concat(hoarder.chunks));
        assertEquals(
                3, hoarder.chunks.stream().filter(ByteBuffer::isDirect).count(), "the three freed slots, lent again");
        byte[] now = new byte[view.remaining()];
        view.duplicate().get(now);
        assertArrayEquals(viewBytes, now, "memory under a live view is never lent again");
        for (ByteBuffer chunk : hoarder.chunks) {
            ChunkPool.giveBack(chunk); // each once; the view is not among them
        }
        assertEquals(pool.allocatedChunks() - 1, pool.idleChunks(), "all back but the memory under the view: " + pool);
        assertEquals(content[0], view.get(0), "the view is still readable");
    }
}
