package io.sluice.bench.providers;

import io.sluice.bench.Op;
import io.sluice.bench.Payload;
import io.sluice.bench.Provider;
import io.sluice.bench.ReadCheck;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The peers' 64 KiB rows read and copy exactly the payload, in 64 KiB chunks, while their default
 * rows keep their 8 KiB chunks.
 */
class PeerLargeReadsTest {

    private static final long SIZE = 1024 * 1024 + 5 * 1024; // not a multiple of either chunk size
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

    /** Reads the source with provider {@code name}, returning the largest chunk it delivered after checking the total. */
    private int largestChunk(String name) throws Exception {
        try (Provider provider = Providers.create(name)) {
            ReadCheck.Delivered delivered =
                    (ReadCheck.Delivered) provider.read(source, SIZE).get(30, TimeUnit.SECONDS);
            assertEquals(SIZE, delivered.bytes());
            return delivered.largestChunkBytes();
        }
    }

    @Test
    void peersReadInSixtyFourKibChunksOnlyInTheirLargeRows() throws Exception {
        for (String peer : List.of("rio", "vertx", "spring")) {
            assertEquals(DEFAULT_CHUNK, largestChunk(peer), peer);
            assertEquals(LARGE_CHUNK, largestChunk(peer + "-64k"), peer + "-64k");
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
                    Object delivered = peer.start(Op.READ, source, null, SIZE).get(30, TimeUnit.SECONDS);
                    assertEquals(SIZE, ((ReadCheck.Delivered) delivered).bytes(), name);
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

    @Test
    void vertxBridgeCopiesKeepTheirLastChunksUnderConcurrency() throws Exception {
        for (String name : List.of("vertx", "vertx-64k")) {
            try (Provider vertx = Providers.create(name)) {
                for (int round = 0; round < 10; round++) {
                    List<CompletableFuture<?>> copies = new ArrayList<>();
                    List<Path> targets = new ArrayList<>();
                    for (int i = 0; i < 10; i++) {
                        targets.add(dir.resolve(name + "-" + round + "-" + i));
                        copies.add(vertx.start(Op.COPY, source, targets.get(i), SIZE));
                    }
                    CompletableFuture.allOf(copies.toArray(CompletableFuture[]::new))
                            .get(60, TimeUnit.SECONDS);
                    for (Path target : targets) {
                        assertNull(Payload.verify(target, SIZE), name + " round " + round);
                    }
                }
            }
        }
    }
}
