package io.sluice.spring;

import io.sluice.ChunkPool;
import io.sluice.ReadOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.PooledDataBuffer;
import reactor.core.publisher.Flux;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Consumer;

import static io.sluice.spring.DataBufferFilesWriteTest.random;
import static io.sluice.spring.DataBufferFilesWriteTest.rootOf;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reads as Flux<DataBuffer> on lent chunks: exact bytes, and a release gives the chunk back once. */
class DataBufferFilesReadTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} bytes from {2} for {3}, chunks of {1}")
    @CsvSource({
        "0, 4096, 0, -1",
        "1, 4096, 0, -1",
        "4095, 4096, 0, -1",
        "4096, 4096, 0, -1",
        "4097, 4096, 0, -1",
        "1000003, 65536, 0, -1",
        "1000003, 65536, 65535, 131074",
        "300000, 1000, 999, 5000",
        "100, 4096, 100, -1",
        "100, 4096, 150, 10"
    })
    void readsTheExactBytesAndEveryReleaseGivesItsChunkBack(int size, int chunkBytes, long offset, long length)
            throws IOException {
        assertExactBytesAndEveryChunkBack(dir, size, chunkBytes, offset, length, DataBufferFiles::read, buffer -> {
            assertTrue(buffer instanceof PooledDataBuffer pooled && pooled.isAllocated());
            assertTrue(buffer.readableByteCount() <= chunkBytes);
        });
    }

    /**
     * Reads {@code size} random bytes from {@code offset} for {@code length} (-1: to the end) with
     * {@code read}, on a pool of 4 chunks of {@code chunkBytes}; checks each buffer with
     * {@code check}, then releases it. Asserts the exact bytes and the pool whole, never run dry.
     */
    static void assertExactBytesAndEveryChunkBack(
            Path dir,
            int size,
            int chunkBytes,
            long offset,
            long length,
            BiFunction<Path, ReadOptions, Flux<DataBuffer>> read,
            Consumer<DataBuffer> check)
            throws IOException {
        byte[] content = random(size, size);
        Path file = Files.write(dir.resolve("source"), content);
        ChunkPool pool = ChunkPool.create(chunkBytes, 4);
        ReadOptions options = ReadOptions.defaults().withLentChunks(pool);
        if (offset > 0 || length >= 0) {
            options = options.withRange(offset, length < 0 ? Long.MAX_VALUE : length);
        }

        byte[] bytes = readReleasing(read.apply(file, options), check);

        int from = (int) Math.min(offset, size);
        int to = length < 0 ? size : (int) Math.min(size, offset + length);
        assertArrayEquals(Arrays.copyOfRange(content, from, to), bytes);
        assertEquals(pool.allocatedChunks(), pool.idleChunks(), "every chunk is back: " + pool);
        assertEquals(0, pool.overflowed(), "no chunk stayed out, so the pool never ran dry");
    }

    /** Every buffer's bytes in order; each buffer is checked, then released (the first release must free it). */
    static byte[] readReleasing(Flux<DataBuffer> buffers, Consumer<DataBuffer> check) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        buffers.doOnNext(buffer -> {
                    check.accept(buffer);
                    byte[] bytes = new byte[buffer.readableByteCount()];
                    buffer.read(bytes);
                    out.writeBytes(bytes);
                    assertTrue(DataBufferUtils.release(buffer), "the first release gives the chunk back");
                })
                .blockLast(WAIT);
        return out.toByteArray();
    }

    @Test
    void aSecondReleaseIsRefusedAndGivesNothingBackTwice() throws IOException {
        assertSecondReleaseRefused(
                dir,
                DataBufferFiles::read,
                IllegalStateException.class,
                first -> assertThrows(IllegalStateException.class, ((PooledDataBuffer) first)::retain));
    }

    /**
     * Holds the 3 buffers of a 10,000-byte read with {@code read} on a pool of 4 chunks of 4096,
     * releases the first, and asserts that a second release is refused ({@code refused} from the
     * buffer itself, {@code alsoRefused} for more) and gives its chunk back only once.
     */
    static void assertSecondReleaseRefused(
            Path dir,
            BiFunction<Path, ReadOptions, Flux<DataBuffer>> read,
            Class<? extends Throwable> refused,
            Consumer<DataBuffer> alsoRefused)
            throws IOException {
        Path file = Files.write(dir.resolve("source"), random(10_000, 1));
        ChunkPool pool = ChunkPool.create(4096, 4);

        List<DataBuffer> held = read.apply(file, ReadOptions.defaults().withLentChunks(pool))
                .collectList()
                .block(WAIT);
        assertEquals(3, held.size());
        assertEquals(0, pool.idleChunks(), "all three are out: " + pool);
        DataBuffer first = held.get(0);

        assertTrue(DataBufferUtils.release(first));
        assertEquals(1, pool.idleChunks());
        assertFalse(DataBufferUtils.release(first), "DataBufferUtils.release of a released buffer does nothing");
        assertThrows(refused, ((PooledDataBuffer) first)::release);
        alsoRefused.accept(first);
        assertEquals(1, pool.idleChunks(), "the chunk went back once: " + pool);
        held.subList(1, 3).forEach(DataBufferUtils::release);
        assertEquals(3, pool.idleChunks());
    }

    @Test
    void retainAndSplitPartsHoldTheChunkUntilTheLastRelease() throws IOException {
        Path file = Files.write(dir.resolve("source"), random(4000, 2));
        ChunkPool pool = ChunkPool.create(4096, 2);
        DataBuffer buffer = DataBufferFiles.read(file, ReadOptions.defaults().withLentChunks(pool))
                .blockFirst(WAIT);

        DataBufferUtils.retain(buffer);
        DataBuffer head = buffer.split(1000);
        assertEquals(1000, head.readableByteCount());
        assertEquals(3000, buffer.readableByteCount());
        assertFalse(DataBufferUtils.release(buffer));
        assertFalse(DataBufferUtils.release(head));
        assertEquals(0, pool.idleChunks(), "one reference is left: " + pool);
        assertTrue(DataBufferUtils.release(buffer.write((byte) 1)), "a fluent call returns the pooled buffer");
        assertEquals(1, pool.idleChunks());
    }

    @Test
    void anInputStreamThatReleasesOnCloseGivesTheChunkBack() throws IOException {
        byte[] content = random(3000, 3);
        Path file = Files.write(dir.resolve("source"), content);
        ChunkPool pool = ChunkPool.create(4096, 2);
        DataBuffer buffer = DataBufferFiles.read(file, ReadOptions.defaults().withLentChunks(pool))
                .blockFirst(WAIT);

        try (InputStream in = buffer.asInputStream(true)) {
            assertArrayEquals(content, in.readAllBytes());
        }

        assertEquals(1, pool.idleChunks());
        assertFalse(((PooledDataBuffer) buffer).isAllocated());
    }

    @Test
    void joinAndCancelGiveEveryChunkBack() throws IOException {
        byte[] content = random(100_000, 4);
        Path file = Files.write(dir.resolve("source"), content);
        ChunkPool pool = ChunkPool.create(4096, 8);
        ReadOptions options = ReadOptions.defaults().withLentChunks(pool);

        DataBuffer joined =
                DataBufferUtils.join(DataBufferFiles.read(file, options)).block(WAIT);
        byte[] bytes = new byte[joined.readableByteCount()];
        joined.read(bytes);
        assertArrayEquals(content, bytes);
        assertEquals(pool.allocatedChunks(), pool.idleChunks(), "join released every part: " + pool);

        List<DataBuffer> firstThree =
                DataBufferFiles.read(file, options).take(3).collectList().block(WAIT);
        assertEquals(3, firstThree.size());
        firstThree.forEach(DataBufferUtils::release);
        assertEquals(pool.allocatedChunks(), pool.idleChunks(), "a cancelled read lent only what it emitted: " + pool);
    }

    @Test
    void optionsWithOwnedChunksAreReadWithLentOnes() throws IOException {
        Path file = Files.write(dir.resolve("source"), random(5000, 5));

        DataBuffer buffer = DataBufferFiles.read(file, ReadOptions.defaults().withChunkSize(8192))
                .blockFirst(WAIT);

        assertTrue(buffer instanceof PooledDataBuffer pooled && pooled.isAllocated());
        assertTrue(DataBufferUtils.release(buffer));
    }

    @Test
    void aMissingFileOrADirectoryArrivesAsOnError() {
        Throwable missing = assertThrows(
                RuntimeException.class,
                () -> DataBufferFiles.read(dir.resolve("missing")).blockLast(WAIT));
        assertInstanceOf(NoSuchFileException.class, rootOf(missing));

        Throwable directory = assertThrows(
                RuntimeException.class, () -> DataBufferFiles.read(dir).blockLast(WAIT));
        assertInstanceOf(IOException.class, rootOf(directory));
        assertTrue(
                rootOf(directory).getMessage().contains(dir.toString()),
                rootOf(directory).getMessage());
    }

    @Test
    void nullArgumentsAreNamed() {
        assertEquals(
                "path",
                assertThrows(NullPointerException.class, () -> DataBufferFiles.read(null))
                        .getMessage());
        assertEquals(
                "options",
                assertThrows(NullPointerException.class, () -> DataBufferFiles.read(dir, (ReadOptions) null))
                        .getMessage());
    }
}
