package io.sluice.spring;

import io.sluice.ChunkPool;
import io.sluice.ReadOptions;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static io.sluice.spring.DataBufferFilesWriteTest.random;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Any content, cut into buffers of any sizes (empty ones included), written with
 * {@link DataBufferFiles#write} and read back with {@link DataBufferFiles#read} in any chunk size and
 * range: the bytes are exact, each written buffer is released once and never before the file holds
 * it, and every chunk read is back in its pool once released.
 */
class RoundTripPropertyTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Property(tries = 40)
    void writtenThenReadBackExactlyWithEveryBufferReleasedOnce(
            @ForAll @IntRange(min = 0, max = 300_000) int size,
            @ForAll @IntRange(min = 1, max = 70_000) int largestItemBytes,
            @ForAll @IntRange(min = 1, max = 70_000) int chunkBytes,
            @ForAll @LongRange(min = 0, max = 310_000) long offset,
            @ForAll @LongRange(min = 0, max = 310_000) long length,
            @ForAll long seed)
            throws Exception {
        Path dir = Files.createTempDirectory("sluice-spring-property");
        try {
            byte[] content = random(size, seed);
            Path file = dir.resolve("file");
            TrackedBuffers buffers = new TrackedBuffers(content, cuts(size, largestItemBytes, seed), file);

            long written = DataBufferFiles.write(buffers.flux(), file).block(WAIT);

            assertEquals(size, written);
            buffers.awaitAllReleased();
            assertEquals(List.of(), buffers.problems());
            assertEquals(Collections.nCopies(buffers.createdCount(), 1), buffers.releaseCounts());

            ChunkPool pool = ChunkPool.create(chunkBytes, 3);
            ReadOptions options = ReadOptions.defaults().withLentChunks(pool).withRange(offset, length);
            byte[] read = DataBufferFiles.read(file, options)
                    .map(RoundTripPropertyTest::drain)
                    .reduce(new ByteArrayOutputStream(), (out, bytes) -> {
                        out.writeBytes(bytes);
                        return out;
                    })
                    .block(WAIT)
                    .toByteArray();

            int from = (int) Math.min(offset, size);
            int to = (int) Math.min(size, from + length);
            assertArrayEquals(Arrays.copyOfRange(content, from, to), read);
            assertEquals(pool.allocatedChunks(), pool.idleChunks(), "every chunk is back: " + pool);
        } finally {
            try (var entries = Files.list(dir)) {
                for (Path entry : entries.toList()) {
                    Files.delete(entry);
                }
            }
            Files.delete(dir);
        }
    }

    private static byte[] drain(DataBuffer buffer) {
        byte[] bytes = new byte[buffer.readableByteCount()];
        buffer.read(bytes);
        DataBufferUtils.release(buffer);
        return bytes;
    }

    /** Random cut points: items of 0 to {@code largestItemBytes} bytes, empty ones included. */
    private static int[] cuts(int size, int largestItemBytes, long seed) {
        Random random = new Random(seed ^ 0x5DEECE66DL);
        List<Integer> ends = new ArrayList<>();
        for (int end = 0; end < size; ) {
            end = Math.min(size, end + random.nextInt(largestItemBytes + 1));
            ends.add(end);
        }
        return ends.stream().mapToInt(Integer::intValue).toArray();
    }
}
