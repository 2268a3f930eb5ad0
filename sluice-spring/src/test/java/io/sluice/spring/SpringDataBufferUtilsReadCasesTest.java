package io.sluice.spring;

import io.sluice.ChunkPool;
import io.sluice.ReadOptions;
import io.sluice.WriteOptions;
import io.sluice.spring.SpringBufferFactories.EachFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.reactivestreams.Subscription;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.NettyDataBuffer;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import org.springframework.core.io.buffer.PooledDataBuffer;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The cases of Spring Framework 6.2's {@code DataBufferUtilsTests} (spring-core, read at v6.2.19)
 * that read a file, re-expressed against {@link DataBufferFiles#read(Path, DataBufferFactory,
 * ReadOptions)}: Spring's {@code read(Path, factory, bufferSize)},
 * {@code readAsynchronousFileChannel} with and without a position, and {@code read(Resource)} of a
 * file, including a cancel after the first buffer and one without demand; then a read written back
 * with {@link DataBufferFiles#write}, also under a subscriber's context. The file is Spring's
 * fixture's shape: 12 bytes, {@code "foobarbazqux"}, read in buffers of 3 unless a case says
 * otherwise.
 *
 * <p>Each case runs once per factory of {@link SpringBufferFactories}, as Spring's
 * {@code AbstractDataBufferAllocatingTests} runs them. sluice reads into chunks lent by a
 * {@link ChunkPool} (a pool of 4 of the case's own here) rather than buffers the factory allocates:
 * a Netty 4 factory gets {@code NettyDataBuffer}s over the chunks, every other factory (Netty 5's
 * too) sluice's own pooled buffers. After every case each buffer the test received was released by
 * it once and freed, every chunk is back in the pool and none was lent from the heap for want of
 * one, a pooled Netty 4 allocator has no live allocation, and {@code DataBufferUtils} failed no
 * release ({@link FailedReleaseLog}). Netty's leak detector runs at PARANOID meanwhile.
 *
 * <p>Not re-expressed: Spring's reads of a mocked channel that fails mid-read (sluice reads a file
 * by its path; its own tests fail reads in {@code sluice-core}) and of an {@code InputStream}.
 */
@ExtendWith({ParanoidLeakDetection.class, FailedReleaseLog.class})
class SpringDataBufferUtilsReadCasesTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private Path file;
    private DataBufferFactory factory;
    private ChunkPool pool;
    private final List<DataBuffer> received = Collections.synchronizedList(new ArrayList<>());

    @BeforeEach
    void springsFixture() throws IOException {
        file = Files.writeString(dir.resolve("DataBufferUtilsCases.txt"), "foobarbazqux", StandardCharsets.US_ASCII);
    }

    @AfterEach
    void everyBufferWasReleasedOnceAndEveryChunkIsBack() throws InterruptedException {
        if (pool == null) {
            return;
        }
        synchronized (received) {
            for (DataBuffer buffer : received) {
                assertTrue(SpringBufferFactories.freed(buffer), "not freed: " + buffer);
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (pool.idleChunks() != pool.allocatedChunks() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(pool.allocatedChunks(), pool.idleChunks(), "every chunk is back: " + pool);
        assertEquals(0, pool.overflowed(), "no chunk was lent from the heap: " + pool);
        SpringBufferFactories.assertNoLiveAllocations(factory);
    }

    @EachFactory
    void theWholeFileComesInBuffersOfTheChunkSize(DataBufferFactory factory) {
        assertEquals(
                List.of("foo", "bar", "baz", "qux"), words(DataBufferFiles.read(file, factory, options(factory, 3))));
    }

    @EachFactory
    void aFileSmallerThanTheChunkComesInOneBuffer(DataBufferFactory factory) {
        assertEquals(List.of("foobarbazqux"), words(DataBufferFiles.read(file, factory, options(factory, 1024))));
    }

    @EachFactory
    void aFileOfExactlyTheChunkSizeComesInOneBuffer(DataBufferFactory factory) {
        assertEquals(List.of("foobarbazqux"), words(DataBufferFiles.read(file, factory, options(factory, 12))));
    }

    @EachFactory
    void aReadFromAPositionStartsThere(DataBufferFactory factory) {
        ReadOptions fromNine = options(factory, 3).withRange(9, Long.MAX_VALUE);

        assertEquals(List.of("qux"), words(DataBufferFiles.read(file, factory, fromNine)));
    }

    @EachFactory
    void aRangeFromAPositionEndsWithinABuffer(DataBufferFactory factory) {
        ReadOptions fiveFromThree = options(factory, 3).withRange(3, 5);

        assertEquals(List.of("bar", "ba"), words(DataBufferFiles.read(file, factory, fiveFromThree)));
    }

    @EachFactory
    void springsTakeUntilByteCountSplitsTheLastBufferOfAReadFromAPosition(DataBufferFactory factory) {
        // As Spring's case cuts a read at a byte count: split the buffer it ends in, release the rest.
        Flux<DataBuffer> read =
                DataBufferFiles.read(file, factory, options(factory, 3).withRange(3, Long.MAX_VALUE));

        assertEquals(List.of("bar", "ba"), words(DataBufferUtils.takeUntilByteCount(read, 5)));
    }

    @EachFactory
    void cancellingAfterTheFirstBufferEndsTheReadAndGivesEveryChunkBack(DataBufferFactory factory)
            throws InterruptedException {
        FirstThenCancel subscriber = new FirstThenCancel();

        DataBufferFiles.read(file, factory, options(factory, 3)).subscribe(subscriber);

        assertTrue(subscriber.cancelled.await(30, TimeUnit.SECONDS));
        Thread.sleep(50); // a signal after the cancel would arrive about now
        assertEquals(List.of("foo"), subscriber.words);
    }

    @EachFactory
    void cancellingWithoutDemandEmitsNothing(DataBufferFactory factory) throws InterruptedException {
        List<DataBuffer> emitted = Collections.synchronizedList(new ArrayList<>());
        BaseSubscriber<DataBuffer> withoutDemand = new BaseSubscriber<>() {
            @Override
            protected void hookOnSubscribe(Subscription subscription) {
                // requests nothing
            }

            @Override
            protected void hookOnNext(DataBuffer buffer) {
                emitted.add(buffer);
                DataBufferUtils.release(buffer);
            }
        };

        DataBufferFiles.read(file, factory, options(factory, 3)).subscribe(withoutDemand);
        withoutDemand.cancel();

        Thread.sleep(50);
        assertEquals(List.of(), emitted);
    }

    @EachFactory
    void aMissingFileFailsTheReadWithNoSuchFile(DataBufferFactory factory) {
        Flux<DataBuffer> read = DataBufferFiles.read(dir.resolve("missing"), factory, options(factory, 3));

        assertInstanceOf(NoSuchFileException.class, failureOf(read));
    }

    @EachFactory
    void aDirectoryIsRefused(DataBufferFactory factory) {
        Flux<DataBuffer> read = DataBufferFiles.read(dir, factory, options(factory, 3));

        assertInstanceOf(FileSystemException.class, failureOf(read));
    }

    @EachFactory
    void aFifoIsRefusedBeforeItIsOpened(DataBufferFactory factory) throws Exception {
        // Differs from Spring, whose read opens the FIFO and waits for a writer: sluice reads regular files only.
        Path fifo = dir.resolve("fifo");
        assumeTrue(mkfifo(fifo), "mkfifo is not available here");

        assertInstanceOf(
                FileSystemException.class, failureOf(DataBufferFiles.read(fifo, factory, options(factory, 3))));
    }

    @EachFactory
    void aReadWrittenToAPathCopiesTheFile(DataBufferFactory factory) throws IOException {
        Path copy = dir.resolve("copy");

        long written = DataBufferFiles.write(DataBufferFiles.read(file, factory, options(factory, 3)), copy)
                .block(WAIT);

        assertEquals(12, written);
        assertEquals("foobarbazqux", Files.readString(copy, StandardCharsets.US_ASCII));
    }

    @EachFactory
    void aReadWrittenToAChannelCopiesTheFile(DataBufferFactory factory) throws IOException {
        Path copy = dir.resolve("copy");
        FileChannel channel = FileChannel.open(copy, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);

        long written = DataBufferFiles.write(
                        DataBufferFiles.read(file, factory, options(factory, 3)), channel, WriteOptions.defaults())
                .block(WAIT);

        assertEquals(12, written);
        assertEquals("foobarbazqux", Files.readString(copy, StandardCharsets.US_ASCII));
    }

    @EachFactory
    void aReadWrittenToAPathSeesTheContextTheWriteIsSubscribedWith(DataBufferFactory factory) throws IOException {
        Path copy = dir.resolve("copy");
        Flux<DataBuffer> read = DataBufferFiles.read(file, factory, options(factory, 1024))
                .transformDeferredContextual((flux, context) -> {
                    assertEquals("TEST", context.getOrDefault("key", "EMPTY"));
                    return flux;
                });

        long written = DataBufferFiles.write(read, copy)
                .transformDeferredContextual((mono, context) -> {
                    assertEquals("TEST", context.getOrDefault("key", "EMPTY"));
                    return mono;
                })
                .contextWrite(Context.of("key", "TEST"))
                .block(WAIT);

        assertEquals(12, written);
        assertEquals("foobarbazqux", Files.readString(copy, StandardCharsets.US_ASCII));
    }

    /** Chunks of {@code chunkBytes} lent by a pool of 4 of this case's own, which the check after it inspects. */
    private ReadOptions options(DataBufferFactory factory, int chunkBytes) {
        this.factory = factory;
        this.pool = ChunkPool.create(chunkBytes, 4);
        return ReadOptions.defaults().withLentChunks(pool);
    }

    /** Each buffer's text, in order; each buffer is checked to be of the factory's kind, then released once. */
    private List<String> words(Flux<DataBuffer> read) {
        return read.map(this::consume).collectList().block(WAIT);
    }

    private String consume(DataBuffer buffer) {
        received.add(buffer);
        if (factory instanceof NettyDataBufferFactory) {
            assertInstanceOf(NettyDataBuffer.class, buffer, "Netty's factory gets Netty's buffers");
        } else {
            assertInstanceOf(PooledDataBuffer.class, buffer);
        }
        String text = buffer.toString(StandardCharsets.US_ASCII);
        assertTrue(DataBufferUtils.release(buffer), "the first release frees the buffer");
        return text;
    }

    /** The error {@code read} fails with, as its subscriber receives it, after no buffer. */
    private Throwable failureOf(Flux<DataBuffer> read) {
        return read.map(this::consume)
                .then(Mono.<Throwable>fromSupplier(() -> new AssertionError("the read completed")))
                .onErrorResume(Mono::just)
                .block(WAIT);
    }

    private static boolean mkfifo(Path fifo) throws InterruptedException {
        try {
            return new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0;
        } catch (IOException e) {
            return false;
        }
    }

    /** Requests one buffer, releases it, cancels; records anything that arrives after. */
    private final class FirstThenCancel extends BaseSubscriber<DataBuffer> {
        final List<String> words = Collections.synchronizedList(new ArrayList<>());
        final CountDownLatch cancelled = new CountDownLatch(1);

        @Override
        protected void hookOnSubscribe(Subscription subscription) {
            request(1);
        }

        @Override
        protected void hookOnNext(DataBuffer buffer) {
            words.add(consume(buffer));
            cancel();
            cancelled.countDown();
        }
    }
}
