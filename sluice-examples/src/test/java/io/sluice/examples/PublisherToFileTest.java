package io.sluice.examples;

import io.sluice.WriteOptions;
import io.smallrye.mutiny.Multi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Flux;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PublisherToFileTest {

    private static final int LINES = 20_000;
    private static final int CHUNK_BYTES = 16 * 1024;
    private static final int CHUNKS = 512;

    @TempDir
    Path dir;

    @Test
    void writesAFluxOfSmallItemsInOrder() throws Exception {
        Path target = dir.resolve("flux.txt");

        long written = PublisherToFile.writeFlux(Flux.range(0, LINES).map(PublisherToFile::line), target)
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS);

        byte[] expected = expectedLines(0, LINES);
        assertEquals(expected.length, written);
        assertArrayEquals(expected, Files.readAllBytes(target));
    }

    @Test
    void writesAMutinyMultiInOrder() throws Exception {
        Path target = dir.resolve("multi.txt");

        long written = PublisherToFile.writeMulti(
                        Multi.createFrom().range(0, LINES).map(PublisherToFile::line), target)
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS);

        byte[] expected = expectedLines(0, LINES);
        assertEquals(expected.length, written);
        assertArrayEquals(expected, Files.readAllBytes(target));
    }

    @Test
    void theWriterRequestsFromAFastFluxWithinTheByteCap() throws Exception {
        Path target = dir.resolve("chunks.bin");
        byte[] source = TestData.bytes(3, CHUNK_BYTES * CHUNKS);
        AtomicLong largestRequest = new AtomicLong();
        Flux<ByteBuffer> chunks = Flux.range(0, CHUNKS)
                .map(index -> ByteBuffer.wrap(source, index * CHUNK_BYTES, CHUNK_BYTES))
                .doOnRequest(requested -> largestRequest.accumulateAndGet(requested, Math::max));

        long written =
                PublisherToFile.writeFlux(chunks, target).toCompletableFuture().get(30, TimeUnit.SECONDS);

        assertEquals(source.length, written);
        assertArrayEquals(source, Files.readAllBytes(target));
        assertTrue(
                largestRequest.get() * CHUNK_BYTES <= WriteOptions.DEFAULT_MAX_QUEUED_BYTES,
                "the byte cap bounds each request; the largest was " + largestRequest.get() + " chunks");
    }

    @Test
    void writesAMultiOfChunksAndBytesMatch() throws Exception {
        Path target = dir.resolve("multi.bin");
        byte[] source = TestData.bytes(4, CHUNK_BYTES * CHUNKS);
        Multi<ByteBuffer> chunks = Multi.createFrom()
                .range(0, CHUNKS)
                .map(index -> ByteBuffer.wrap(source, index * CHUNK_BYTES, CHUNK_BYTES));

        long written =
                PublisherToFile.writeMulti(chunks, target).toCompletableFuture().get(30, TimeUnit.SECONDS);

        assertEquals(source.length, written);
        assertArrayEquals(source, Files.readAllBytes(target));
    }

    private static byte[] expectedLines(int from, int to) {
        return IntStream.range(from, to)
                .mapToObj(number -> "line " + number + "\n")
                .collect(Collectors.joining())
                .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }
}
