package io.sluice.spring;

import io.netty.buffer.PooledByteBufAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.NettyDataBuffer;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.sluice.spring.DataBufferFilesWriteTest.random;
import static io.sluice.spring.DataBufferFilesWriteTest.rootOf;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Netty's pooled, reference-counted buffers, as Reactor Netty hands them to WebFlux: each is retained
 * once by the test before the write, so after it exactly one reference must be left. None left means a
 * double release (the test's own release would throw IllegalReferenceCountException), two mean a leak.
 * The leak detector runs at PARANOID meanwhile, tracking every buffer.
 */
@ExtendWith(ParanoidLeakDetection.class)
class NettyBuffersWriteTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private final NettyDataBufferFactory factory = new NettyDataBufferFactory(PooledByteBufAllocator.DEFAULT);
    private final List<NettyDataBuffer> sent = Collections.synchronizedList(new ArrayList<>());

    @TempDir
    Path dir;

    @Test
    void plainAndCompositeBuffersAreWrittenExactlyAndReleasedOnce() throws Exception {
        byte[] content = random(1_000_000, 11);
        Path target = dir.resolve("target");

        long written = DataBufferFiles.write(buffers(content, 3000), target).block(WAIT);

        assertEquals(content.length, written);
        assertArrayEquals(content, Files.readAllBytes(target));
        assertEachHeldOnlyByTheTest();
    }

    @Test
    void aCancelledWriteReleasesWhatItReceivedOnce() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch sourceCancelled = new CountDownLatch(1);
        Flux<DataBuffer> endless = Flux.concat(buffers(random(200_000, 12), 5000), Flux.never())
                .doOnNext(buffer -> started.countDown())
                .doOnCancel(sourceCancelled::countDown);

        Disposable write =
                DataBufferFiles.write(endless, dir.resolve("cancelled")).subscribe();
        assertTrue(started.await(30, TimeUnit.SECONDS));
        write.dispose();

        assertTrue(sourceCancelled.await(30, TimeUnit.SECONDS));
        awaitEachHeldOnlyByTheTest();
    }

    @Test
    void aFailedWriteReleasesWhatItReceivedOnce() {
        Throwable failed = assertThrows(
                RuntimeException.class,
                () -> DataBufferFiles.write(
                                buffers(random(100_000, 13), 4000),
                                dir.resolve("missing").resolve("target"))
                        .block(WAIT));

        assertInstanceOf(NoSuchFileException.class, rootOf(failed));
        assertEachHeldOnlyByTheTest();
    }

    /**
     * The content as Netty buffers, every third a composite of two, each retained once for the test.
     */
    private Flux<DataBuffer> buffers(byte[] content, int itemBytes) {
        int items = (content.length + itemBytes - 1) / itemBytes;
        return Flux.range(0, items).map(index -> {
            int start = index * itemBytes;
            int end = Math.min(content.length, start + itemBytes);
            NettyDataBuffer buffer;
            if (index % 3 == 2 && end - start > 1) {
                int middle = (start + end) / 2;
                buffer = (NettyDataBuffer) factory.join(List.of(
                        factory.allocateBuffer(middle - start).write(content, start, middle - start),
                        factory.allocateBuffer(end - middle).write(content, middle, end - middle)));
            } else {
                buffer = (NettyDataBuffer) factory.allocateBuffer(end - start).write(content, start, end - start);
            }
            buffer.retain();
            sent.add(buffer);
            return buffer;
        });
    }

    private void assertEachHeldOnlyByTheTest() {
        List<Integer> references =
                sent.stream().map(buffer -> buffer.getNativeBuffer().refCnt()).toList();
        assertEquals(Collections.nCopies(sent.size(), 1), references);
        sent.forEach(NettyDataBuffer::release); // throws IllegalReferenceCountException if released twice
    }

    /** After a cancel the writer releases what it held on its drain: waits for that, then checks. */
    private void awaitEachHeldOnlyByTheTest() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (sent.stream().anyMatch(buffer -> buffer.getNativeBuffer().refCnt() > 1)
                && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertEachHeldOnlyByTheTest();
    }
}
