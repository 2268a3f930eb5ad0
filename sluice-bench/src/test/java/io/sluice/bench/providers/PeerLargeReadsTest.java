package io.sluice.bench.providers;

import io.sluice.bench.Op;
import io.sluice.bench.Payload;
import io.sluice.bench.Provider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The peers' 64 KiB rows read and copy exactly the payload, in 64 KiB chunks, while their default
 * rows keep their 8 KiB chunks.
 */
class PeerLargeReadsTest {

    private static final long SIZE = 1024 * 1024 + 5 * 1024;  // not a multiple of either chunk size
    private static final int DEFAULT_CHUNK = 8 * 1024;
    private static final int LARGE_CHUNK = 64 * 1024;

    @TempDir
    Path dir;
    private Path source;

    @BeforeEach
    void createSource() throws Exception {
        source = dir.resolve("source");
        Payload.createFile(source, SIZE);
    }

    /** Reads the source with {@code read}, returning the largest chunk it delivered after checking the total. */
    private static int largestChunk(ChunkedRead read) throws Exception {
        AtomicInteger largest = new AtomicInteger();
        AtomicInteger total = new AtomicInteger();
        IntConsumer lengths = length -> {
            largest.accumulateAndGet(length, Math::max);
            total.addAndGet(length);
        };
        assertEquals(SIZE, read.start(lengths).get(30, TimeUnit.SECONDS));
        assertEquals(SIZE, total.get());
        return largest.get();
    }

    private interface ChunkedRead {
        CompletableFuture<Long> start(IntConsumer chunkLengths);
    }

    @Test
    void rioReadsInSixtyFourKibChunksOnlyInItsLargeRow() throws Exception {
        try (RioProvider defaults = new RioProvider("rio"); RioProvider large = new RioProvider("rio-64k")) {
            assertEquals(DEFAULT_CHUNK, largestChunk(lengths -> defaults.read(source, SIZE, lengths)));
            assertEquals(LARGE_CHUNK, largestChunk(lengths -> large.read(source, SIZE, lengths)));
        }
    }

    @Test
    void vertxReadsInSixtyFourKibChunksOnlyInItsLargeRow() throws Exception {
        try (VertxProvider defaults = new VertxProvider("vertx"); VertxProvider large = new VertxProvider("vertx-64k")) {
            assertEquals(DEFAULT_CHUNK, largestChunk(lengths -> defaults.read(source, SIZE, lengths)));
            assertEquals(LARGE_CHUNK, largestChunk(lengths -> large.read(source, SIZE, lengths)));
        }
    }

    @Test
    void springReadsInSixtyFourKibChunksOnlyInItsLargeRow() throws Exception {
        try (SpringProvider defaults = new SpringProvider("spring");
             SpringProvider large = new SpringProvider("spring-64k")) {
            assertEquals(DEFAULT_CHUNK, largestChunk(lengths -> defaults.read(source, SIZE, lengths)));
            assertEquals(LARGE_CHUNK, largestChunk(lengths -> large.read(source, SIZE, lengths)));
        }
    }

    @Test
    void largeRowsReadAndCopyExactlyThePayloadAndNeitherWriteNorForce() throws Exception {
        for (String name : List.of("rio-64k", "vertx-64k", "vertx-pipe-64k", "spring-64k")) {
            try (Provider peer = Providers.create(name)) {
                assertEquals(name, peer.name());
                assertFalse(Providers.isBaseline(name), name);
                assertFalse(peer.supports(Op.WRITE), name);
                assertFalse(peer.supports(Op.WRITE_SYNC), name);
                assertTrue(peer.supports(Op.COPY), name);
                if (peer.supports(Op.READ)) {
                    assertEquals(SIZE, peer.start(Op.READ, source, null, SIZE).get(30, TimeUnit.SECONDS), name);
                }
                Path target = dir.resolve(name);
                peer.start(Op.COPY, source, target, SIZE).get(30, TimeUnit.SECONDS);
                assertNull(Payload.verify(target, SIZE), name);
            }
        }
    }

    @Test
    void vertxDurableWriteWritesExactlyThePayload() throws Exception {
        try (Provider vertx = Providers.create("vertx")) {
            assertTrue(vertx.supports(Op.WRITE_SYNC));
            for (long size : List.of(1024L, SIZE)) {
                Path target = dir.resolve("durable-" + size);
                vertx.start(Op.WRITE_SYNC, null, target, size).get(30, TimeUnit.SECONDS);
                assertNull(Payload.verify(target, size));
            }
        }
    }
}
