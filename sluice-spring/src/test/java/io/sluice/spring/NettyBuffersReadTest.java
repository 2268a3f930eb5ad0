package io.sluice.spring;

import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.IllegalReferenceCountException;
import io.sluice.ChunkPool;
import io.sluice.ReadOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.core.io.buffer.NettyDataBuffer;
import org.springframework.core.io.buffer.NettyDataBufferFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static io.sluice.spring.DataBufferFilesWriteTest.random;
import static io.sluice.spring.DataBufferFilesWriteTest.rootOf;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reads given Netty's factory, as Reactor Netty's {@code response.bufferFactory()} is: every buffer
 * is a {@link NettyDataBuffer} over a lent chunk, and Netty's count reaching 0 gives the chunk back,
 * once. Every test ends with the pool whole (allocated == idle). The leak detector runs at PARANOID.
 */
@ExtendWith(ParanoidLeakDetection.class)
class NettyBuffersReadTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private final NettyDataBufferFactory netty = new NettyDataBufferFactory(PooledByteBufAllocator.DEFAULT);

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
        "300000, 1000, 999, 5000"
    })
    void everyBufferIsNettysOverTheExactBytesAndItsReleaseGivesTheChunkBack(
            int size, int chunkBytes, long offset, long length) throws IOException {
        DataBufferFilesReadTest.assertExactBytesAndEveryChunkBack(
                dir,
                size,
                chunkBytes,
                offset,
                length,
                (file, options) -> DataBufferFiles.read(file, netty, options),
                buffer -> assertEquals(
                        1,
                        assertInstanceOf(NettyDataBuffer.class, buffer)
                                .getNativeBuffer()
                                .refCnt()));
    }

    @Test
    void aSecondReleaseIsRefusedByNettyAndGivesNothingBackTwice() throws IOException {
        DataBufferFilesReadTest.assertSecondReleaseRefused(
                dir,
                (file, options) -> DataBufferFiles.read(file, netty, options),
                IllegalReferenceCountException.class,
                first -> assertThrows(
                        IllegalReferenceCountException.class, ((NettyDataBuffer) first).getNativeBuffer()::release));
    }

    @Test
    void retainedAndSplitPartsHoldTheChunkUntilNettysCountReachesZero() throws IOException {
        Path file = Files.write(dir.resolve("source"), random(4000, 2));
        ChunkPool pool = ChunkPool.create(4096, 2);
        DataBuffer buffer = DataBufferFiles.read(
                        file, netty, ReadOptions.defaults().withLentChunks(pool))
                .blockFirst(WAIT);

        DataBufferUtils.retain(buffer);
        DataBuffer head = buffer.split(1000);
        assertFalse(DataBufferUtils.release(buffer));
        assertFalse(DataBufferUtils.release(head));
        assertEquals(0, pool.idleChunks(), "one reference is left: " + pool);
        assertTrue(DataBufferUtils.release(buffer));
        assertEquals(1, pool.idleChunks());
    }

    @Test
    void aCancelMidStreamLendsOnlyWhatWasEmittedAndItComesBack() throws IOException {
        Path file = Files.write(dir.resolve("source"), random(100_000, 3));
        ChunkPool pool = ChunkPool.create(4096, 8);

        List<DataBuffer> firstThree = DataBufferFiles.read(
                        file, netty, ReadOptions.defaults().withLentChunks(pool))
                .take(3)
                .collectList()
                .block(WAIT);

        assertEquals(3, firstThree.size());
        firstThree.forEach(DataBufferUtils::release);
        assertEquals(pool.allocatedChunks(), pool.idleChunks(), "every chunk is back: " + pool);
    }

    @Test
    void anErrorMidStreamReleasesWhatArrivedAndEveryChunkComesBack() throws IOException {
        Path file = Files.write(dir.resolve("source"), random(100_000, 4));
        ChunkPool pool = ChunkPool.create(4096, 8);

        // Spring's join over a limit fails on the buffer that passes it and releases what it had.
        Throwable failure = assertThrows(
                RuntimeException.class,
                () -> DataBufferUtils.join(
                                DataBufferFiles.read(
                                        file, netty, ReadOptions.defaults().withLentChunks(pool)),
                                10_000)
                        .block(WAIT));

        assertInstanceOf(DataBufferLimitException.class, rootOf(failure));
        assertEquals(pool.allocatedChunks(), pool.idleChunks(), "every chunk is back: " + pool);
    }

    @Test
    void anyOtherFactoryGetsSluicesPooledBuffersAsBefore() throws IOException {
        byte[] content = random(10_000, 5);
        Path file = Files.write(dir.resolve("source"), content);
        ChunkPool pool = ChunkPool.create(4096, 4);

        byte[] read = DataBufferFilesReadTest.readReleasing(
                DataBufferFiles.read(
                        file,
                        DefaultDataBufferFactory.sharedInstance,
                        ReadOptions.defaults().withLentChunks(pool)),
                buffer -> {
                    assertFalse(buffer instanceof NettyDataBuffer);
                    assertInstanceOf(LentChunkBuffer.class, buffer);
                });

        assertArrayEquals(content, read);
        assertEquals(pool.allocatedChunks(), pool.idleChunks(), "every chunk is back: " + pool);
        assertEquals(
                "factory",
                assertThrows(NullPointerException.class, () -> DataBufferFiles.read(file, null, ReadOptions.defaults()))
                        .getMessage());
    }
}
