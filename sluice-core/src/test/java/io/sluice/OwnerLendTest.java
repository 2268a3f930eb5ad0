package io.sluice;

import io.sluice.testing.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Flux;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link ChunkPool#lend}: an owner's buffer comes back to its callback once, after its bytes are written. */
class OwnerLendTest {

    @TempDir
    Path dir;

    @Test
    void aWriterGivesBackEachLentBufferOnceAfterItsBytesAreInTheFile() throws Exception {
        byte[] content = Bytes.random(300_000, 7);
        Path target = dir.resolve("target");
        int itemBytes = 10_000;
        int items = (content.length + itemBytes - 1) / itemBytes;
        AtomicInteger[] givenBack = new AtomicInteger[items];
        ConcurrentLinkedQueue<String> early = new ConcurrentLinkedQueue<>();
        Flux<ByteBuffer> lent = Flux.range(0, items).map(index -> {
            givenBack[index] = new AtomicInteger();
            int end = Math.min(content.length, (index + 1) * itemBytes);
            ByteBuffer own = ByteBuffer.wrap(content, index * itemBytes, end - index * itemBytes);
            return ChunkPool.lend(own, () -> {
                givenBack[index].incrementAndGet();
                if (!fileHolds(target, content, end)) {
                    early.add("item " + index + " given back before its bytes were in the file");
                }
            });
        });

        long written = ReactiveFile.of(target).write(lent).toCompletableFuture().get(30, TimeUnit.SECONDS);

        assertEquals(content.length, written);
        assertArrayEquals(content, Files.readAllBytes(target));
        assertTrue(early.isEmpty(), early::toString);
        assertTrue(Arrays.stream(givenBack).allMatch(count -> count.get() == 1), Arrays.toString(givenBack));
    }

    @Test
    void aFailedWriteGivesBackEveryBufferItReceived() {
        AtomicInteger lentCount = new AtomicInteger();
        AtomicInteger givenBack = new AtomicInteger();
        Flux<ByteBuffer> lent = Flux.range(0, 5).map(index -> {
            lentCount.incrementAndGet();
            return ChunkPool.lend(ByteBuffer.allocate(100), givenBack::incrementAndGet);
        });

        assertThrows(
                CompletionException.class,
                () -> ReactiveFile.of(dir.resolve("missing/target"))
                        .write(lent)
                        .toCompletableFuture()
                        .join());

        assertEquals(lentCount.get(), givenBack.get());
    }

    @Test
    void theViewIsFreshAndAGiveBackTwiceIsRefused() {
        ByteBuffer own = ByteBuffer.wrap(new byte[] {1, 2, 3}).position(1);
        AtomicInteger givenBack = new AtomicInteger();

        ByteBuffer view = ChunkPool.lend(own, givenBack::incrementAndGet);

        assertNotSame(own, view);
        assertEquals(1, view.position());
        assertTrue(ChunkPool.isLent(view));
        assertFalse(ChunkPool.isLent(own));
        ChunkPool.giveBack(view);
        assertEquals(1, givenBack.get());
        assertThrows(IllegalArgumentException.class, () -> ChunkPool.giveBack(view));
        assertEquals(1, givenBack.get());
    }

    private static boolean fileHolds(Path file, byte[] content, int end) {
        try {
            byte[] now = Files.readAllBytes(file);
            return now.length >= end && Arrays.equals(now, 0, end, content, 0, end);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
