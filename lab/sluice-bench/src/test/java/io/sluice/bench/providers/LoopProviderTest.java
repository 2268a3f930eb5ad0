package io.sluice.bench.providers;

import io.sluice.bench.Op;
import io.sluice.bench.Payload;
import io.sluice.bench.Provider;
import io.sluice.bench.ReadCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.Field;
import java.nio.file.Files;
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
 * The plain-JDK loops added as the best baselines: what they write, read and copy is exactly the payload, the
 * reused buffers are allocated once per thread, never per operation, and the pooled loops kept beside them take
 * their buffers from the pool.
 */
class LoopProviderTest {

    private static final long KIB = 1024;
    /** The staging loops: on a per-thread reused buffer, and on a pooled one. */
    private static final List<String> STAGED = List.of("loop-reused-staged-256k", "loop-staged-256k");
    /** The direct-buffer read and copy loops: on per-thread reused buffers, and on pooled ones. */
    private static final List<String> DIRECT =
            List.of("loop-reused-direct-64k", "loop-reused-direct-256k", "loop-direct-64k", "loop-direct-256k");

    @TempDir
    Path dir;

    @Test
    void stagedLoopsWriteExactlyThePayloadAroundEveryBufferBoundary() throws Exception {
        for (String name : STAGED) {
            try (Provider loop = Providers.create(name)) {
                // one chunk, one chunk short of a full buffer, exactly full, one over, several buffers
                for (long size : List.of(KIB, 255 * KIB, 256 * KIB, 257 * KIB, 3 * 1024 * KIB + 5 * KIB)) {
                    for (boolean sync : List.of(false, true)) {
                        Path target = dir.resolve(name + "-" + size + "-" + sync);
                        Object written =
                                loop.write(target, Payload.chunks(size), sync).get(30, TimeUnit.SECONDS);
                        assertEquals(size, written, name);
                        assertNull(Payload.verify(target, size), name + ", size " + size + ", sync " + sync);
                    }
                }
            }
        }
    }

    @Test
    void concurrentStagedWritesNeverShareABuffer() throws Exception {
        long size = 1024 * KIB + 3 * KIB;
        for (String name : STAGED) {
            try (Provider loop = Providers.create(name)) {
                for (int round = 0; round < 3; round++) { // later rounds reuse the buffers of the first
                    List<CompletableFuture<?>> writes = new ArrayList<>();
                    for (int i = 0; i < 8; i++) {
                        writes.add(loop.write(dir.resolve(name + round + "-" + i), Payload.chunks(size), false));
                    }
                    CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new))
                            .get(60, TimeUnit.SECONDS);
                    for (int i = 0; i < 8; i++) {
                        assertNull(
                                Payload.verify(dir.resolve(name + round + "-" + i), size),
                                name + ", round " + round + ", write " + i);
                    }
                }
            }
        }
    }

    @Test
    void stagedLoopStagesInTheBufferSizeSluicesChannelWriterUses() throws Exception {
        Class<?> staging = Class.forName("io.sluice.internal.write.StagingBuffers");
        Field bytes = staging.getDeclaredField("STAGING_BYTES");
        bytes.setAccessible(true);
        assertEquals(
                bytes.getInt(null),
                LoopProvider.STAGING_BYTES,
                "the staged loops claim sluice's staging size; rename them if core's changes");
    }

    @Test
    void stagedLoopsAreWriteOnlyBaselines() {
        for (String name : STAGED) {
            try (Provider loop = Providers.create(name)) {
                assertTrue(Providers.isBaseline(loop.name()), name);
                assertTrue(loop.supports(Op.WRITE), name);
                assertTrue(loop.supports(Op.WRITE_SYNC), name);
                assertFalse(loop.supports(Op.READ), name);
                assertFalse(loop.supports(Op.COPY), name);
            }
        }
    }

    @Test
    void directBufferLoopsReadAndCopyOnly() {
        for (String name : DIRECT) {
            try (Provider loop = Providers.create(name)) {
                assertTrue(Providers.isBaseline(loop.name()), name);
                assertTrue(loop.supports(Op.READ), name);
                assertTrue(loop.supports(Op.COPY), name);
                assertFalse(loop.supports(Op.WRITE), name);
            }
        }
    }

    @Test
    void directBufferLoopsReadAndCopyExactlyThePayload() throws Exception {
        long size = 1024 * KIB + 7 * KIB;
        Path source = dir.resolve("source");
        Payload.createFile(source, size);
        for (String name : DIRECT) {
            try (Provider loop = Providers.create(name)) {
                for (int round = 0; round < 3; round++) { // later rounds read into the first's buffers
                    List<CompletableFuture<?>> reads = new ArrayList<>();
                    for (int i = 0; i < 6; i++) {
                        reads.add(loop.read(source, size));
                    }
                    for (CompletableFuture<?> read : reads) {
                        assertEquals(size, ((ReadCheck.Delivered) read.get(30, TimeUnit.SECONDS)).bytes(), name);
                    }
                    List<CompletableFuture<?>> copies = new ArrayList<>();
                    for (int i = 0; i < 4; i++) {
                        copies.add(loop.copy(source, dir.resolve(name + "-copy-" + i)));
                    }
                    CompletableFuture.allOf(copies.toArray(CompletableFuture[]::new))
                            .get(30, TimeUnit.SECONDS);
                    for (int i = 0; i < 4; i++) {
                        assertNull(Payload.verify(dir.resolve(name + "-copy-" + i), size), name);
                    }
                }
            }
        }
    }

    @Test
    void everyWritingLoopStillWritesExactlyThePayloadWhenDurable() throws Exception {
        long size = 300 * KIB;
        for (String name : List.of("loop", "loop-gather", "loop-reused-staged-256k", "loop-staged-256k")) {
            try (Provider loop = Providers.create(name)) {
                Path target = dir.resolve(name);
                loop.start(Op.WRITE_SYNC, null, target, size).get(30, TimeUnit.SECONDS);
                assertNull(Payload.verify(target, size), name);
            }
        }
    }

    @Test
    void reusedBufferLoopsAllocateAtMostOneBufferPerThreadHoweverManyOperationsRunAtOnce() throws Exception {
        Path source = dir.resolve("small");
        Payload.createFile(source, KIB);
        int parallelism = 100; // far more operations at once than threads are idle at first
        int rounds = 4;
        for (String name : List.of("loop-reused-direct-64k", "loop-reused-direct-256k", "loop-reused-staged-256k")) {
            try (LoopProvider loop = (LoopProvider) Providers.create(name)) {
                for (int round = 0; round < rounds; round++) {
                    List<CompletableFuture<?>> operations = new ArrayList<>();
                    for (int i = 0; i < parallelism; i++) {
                        operations.add(
                                loop.supports(Op.READ)
                                        ? loop.read(source, KIB)
                                        : loop.write(dir.resolve(name + "-" + i), 1, false));
                    }
                    CompletableFuture.allOf(operations.toArray(CompletableFuture[]::new))
                            .get(60, TimeUnit.SECONDS);
                }
                assertTrue(loop.reusedBuffersAllocated() > 0, name);
                assertTrue(
                        loop.reusedBuffersAllocated() <= loop.threadsStarted(),
                        name + ": " + loop.reusedBuffersAllocated() + " buffers for " + loop.threadsStarted()
                                + " threads and " + rounds * parallelism + " operations");
                assertEquals(0, loop.pooledBuffersAllocated(), name);
            }
        }
    }

    @Test
    void pooledLoopsTakeTheirBuffersFromThePoolNotFromAThread() throws Exception {
        Path source = dir.resolve("small");
        Payload.createFile(source, KIB);
        for (String name : List.of("loop-direct-64k", "loop-direct-256k", "loop-staged-256k")) {
            try (LoopProvider loop = (LoopProvider) Providers.create(name)) {
                for (int operation = 0; operation < 5; operation++) { // one at a time: each gives its buffer back
                    CompletableFuture<?> done = loop.supports(Op.READ)
                            ? loop.read(source, KIB)
                            : loop.write(dir.resolve(name + "-" + operation), 1, false);
                    done.get(30, TimeUnit.SECONDS);
                }
                assertEquals(1, loop.pooledBuffersAllocated(), name + ": the later operations take the idle one");
                assertEquals(0, loop.reusedBuffersAllocated(), name);
            }
        }
    }

    @Test
    void loopsWithoutAReusedBufferAllocateNone() throws Exception {
        Path source = dir.resolve("source");
        Payload.createFile(source, 64 * KIB);
        for (String name : List.of("loop", "loop-fresh-64k", "loop-transfer")) {
            try (LoopProvider loop = (LoopProvider) Providers.create(name)) {
                Op op = loop.supports(Op.READ) ? Op.READ : Op.COPY;
                loop.start(op, source, dir.resolve(name), 64 * KIB).get(30, TimeUnit.SECONDS);
                assertEquals(0, loop.reusedBuffersAllocated(), name);
                assertEquals(0, loop.pooledBuffersAllocated(), name);
            }
        }
    }

    @Test
    void transferLoopCopiesExactlyTheSourceAtEverySize() throws Exception {
        try (Provider loop = Providers.create("loop-transfer")) {
            // empty, one byte, one byte over a 64 KiB buffer, several MiB with a ragged end
            for (long size : List.of(0L, 1L, 64 * KIB + 1, 3 * 1024 * KIB + 5)) {
                Path source = dir.resolve("transfer-source-" + size);
                Files.write(source, bytes(size));
                Path target = dir.resolve("transfer-target-" + size);
                Files.write(target, bytes(size + 4096)); // a longer file there already: truncated first
                assertEquals(size, loop.copy(source, target).get(30, TimeUnit.SECONDS), "size " + size);
                assertEquals(-1, Files.mismatch(source, target), "size " + size);
            }
        }
    }

    @Test
    void transferLoopIsACopyOnlyBaseline() {
        try (Provider loop = Providers.create("loop-transfer")) {
            assertTrue(Providers.isBaseline(loop.name()));
            assertTrue(loop.supports(Op.COPY));
            assertFalse(loop.supports(Op.READ));
            assertFalse(loop.supports(Op.WRITE));
            assertFalse(loop.supports(Op.WRITE_SYNC));
        }
    }

    /** {@code size} bytes that differ from one offset to the next, so a shifted or repeated block shows. */
    private static byte[] bytes(long size) {
        byte[] bytes = new byte[Math.toIntExact(size)];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (i * 31 + (i >>> 8));
        }
        return bytes;
    }
}
