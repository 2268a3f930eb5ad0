package io.sluice.spring;

import io.sluice.ReactiveFile;
import io.sluice.WriteOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferWrapper;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.core.io.buffer.PooledDataBuffer;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
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
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Writes of DataBuffer publishers: exact bytes, and every buffer released once, after its bytes are written. */
class DataBufferFilesWriteTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} bytes in items of {1}")
    @CsvSource({
        "0, 1000",
        "1, 1",
        "4095, 4096",
        "4096, 4096",
        "4097, 4096",
        "65535, 1000",
        "65536, 65536",
        "65537, 65536",
        "300000, 1",
        "1000003, 8192",
        "2097153, 1048576"
    })
    void writesTheExactBytesAndReleasesEachBufferOnceAfterItsBytesAreInTheFile(int size, int itemBytes)
            throws Exception {
        byte[] content = random(size, size);
        Path target = dir.resolve("target");
        TrackedBuffers buffers = new TrackedBuffers(content, itemBytes, target);

        long written = DataBufferFiles.write(buffers.flux(), target).block(WAIT);

        assertEquals(size, written);
        assertArrayEquals(content, Files.readAllBytes(target));
        buffers.awaitAllReleased();
        assertEquals(List.of(), buffers.problems());
        assertEquals(Collections.nCopies(buffers.createdCount(), 1), buffers.releaseCounts());
    }

    @Test
    void writesToAChannelAndReleasesEachBufferOnce() throws Exception {
        byte[] content = random(500_000, 3);
        Path target = dir.resolve("channel-target");
        TrackedBuffers buffers = new TrackedBuffers(content, 10_000, target);
        FileChannel channel = FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);

        long written = DataBufferFiles.write(buffers.flux(), channel, WriteOptions.defaults())
                .block(WAIT);

        assertEquals(content.length, written);
        assertArrayEquals(content, Files.readAllBytes(target));
        assertTrue(!channel.isOpen(), "the write closes the channel");
        buffers.awaitAllReleased();
        assertEquals(List.of(), buffers.problems());
        assertEquals(Collections.nCopies(buffers.createdCount(), 1), buffers.releaseCounts());
    }

    @Test
    void optionsPassThrough() throws Exception {
        Path target = dir.resolve("appended");
        Files.write(target, new byte[] {1, 2});
        TrackedBuffers buffers = new TrackedBuffers(new byte[] {3, 4, 5}, 1, null);

        DataBufferFiles.write(buffers.flux(), target, WriteOptions.append()).block(WAIT);

        assertArrayEquals(new byte[] {1, 2, 3, 4, 5}, Files.readAllBytes(target));
        buffers.awaitAllReleased();
        Throwable refused = assertThrows(
                RuntimeException.class,
                () -> DataBufferFiles.write(
                                new TrackedBuffers(new byte[1], 1, null).flux(), target, WriteOptions.createNew())
                        .block(WAIT));
        assertInstanceOf(java.nio.file.FileAlreadyExistsException.class, rootOf(refused));
    }

    @Test
    void atomicReplaceWithAppendFailsTheWriteNamingTheConflict() {
        Throwable signalled = DataBufferFiles.write(
                        Flux.empty(), dir.resolve("x"), WriteOptions.append().withAtomicReplace())
                .map(written -> (Throwable) new AssertionError("wrote " + written))
                .onErrorResume(Mono::just)
                .block(WAIT);

        assertInstanceOf(IllegalArgumentException.class, signalled);
        assertTrue(Files.notExists(dir.resolve("x")));
    }

    @Test
    void aBufferWhoseBytesCannotBeReadFailsTheWriteAndEveryBufferIsReleasedOnce() throws Exception {
        TrackedBuffers before = new TrackedBuffers(random(30_000, 9), 1000, null);
        TrackedBuffers after = new TrackedBuffers(random(30_000, 10), 1000, null);
        TrackedBuffers.Tracked broken = (TrackedBuffers.Tracked) new TrackedBuffers(new byte[10], 10, null).item(0);
        Flux<DataBuffer> source = Flux.concat(before.flux(), Mono.just(new UnreadableBuffer(broken)), after.flux());

        Throwable signalled = DataBufferFiles.write(source, dir.resolve("broken"))
                .map(written -> (Throwable) new AssertionError("wrote " + written))
                .onErrorResume(Mono::just)
                .block(WAIT);

        assertInstanceOf(IllegalArgumentException.class, signalled);
        assertTrue(signalled.getMessage().startsWith("cannot read the bytes of"), signalled.getMessage());
        assertEquals(1, broken.releases.get(), "the unreadable buffer is released at once");
        before.awaitAllReleased();
        after.awaitAllReleased();
        assertEquals(Collections.nCopies(before.createdCount(), 1), before.releaseCounts());
        assertEquals(Collections.nCopies(after.createdCount(), 1), after.releaseCounts());
    }

    /** A pooled buffer whose bytes cannot be read, as one released by someone else fails. */
    private static final class UnreadableBuffer extends DataBufferWrapper implements PooledDataBuffer {
        private final PooledDataBuffer tracked;

        UnreadableBuffer(PooledDataBuffer tracked) {
            super(tracked);
            this.tracked = tracked;
        }

        @Override
        public ByteBufferIterator readableByteBuffers() {
            throw new IllegalStateException("refCnt: 0");
        }

        @Override
        public boolean isAllocated() {
            return tracked.isAllocated();
        }

        @Override
        public PooledDataBuffer retain() {
            return tracked.retain();
        }

        @Override
        public PooledDataBuffer touch(Object hint) {
            return this;
        }

        @Override
        public boolean release() {
            return tracked.release();
        }
    }

    @Test
    void aCancelMidStreamReleasesEveryBufferSentOnce() throws Exception {
        TrackedBuffers buffers = new TrackedBuffers(random(100_000, 4), 1000, null);
        CountDownLatch someReleased = new CountDownLatch(1);
        CountDownLatch sourceCancelled = new CountDownLatch(1);
        Flux<DataBuffer> endless = Flux.concat(buffers.flux().take(50), Flux.never())
                .doOnNext(buffer -> someReleased.countDown())
                .doOnCancel(sourceCancelled::countDown);

        Disposable write =
                DataBufferFiles.write(endless, dir.resolve("cancelled")).subscribe();
        assertTrue(someReleased.await(30, TimeUnit.SECONDS));
        write.dispose();

        assertTrue(sourceCancelled.await(30, TimeUnit.SECONDS), "cancelling the write cancels the source");
        buffers.awaitAllReleased();
        assertEquals(List.of(), buffers.problems());
        assertEquals(Collections.nCopies(buffers.createdCount(), 1), buffers.releaseCounts());
    }

    @Test
    void anErrorFromTheSourceFailsTheWriteAndReleasesEveryBufferOnce() throws Exception {
        TrackedBuffers buffers = new TrackedBuffers(random(200_000, 5), 7000, null);
        IOException boom = new IOException("upload aborted");

        Throwable failed = assertThrows(
                RuntimeException.class,
                () -> DataBufferFiles.write(Flux.concat(buffers.flux(), Flux.error(boom)), dir.resolve("failed"))
                        .block(WAIT));

        assertEquals(boom, rootOf(failed));
        buffers.awaitAllReleased();
        assertEquals(List.of(), buffers.problems());
        assertEquals(Collections.nCopies(buffers.createdCount(), 1), buffers.releaseCounts());
    }

    /**
     * As Spring's {@code DataBufferUtils.write}: foo, bar, then an error gives "foobar" and the
     * error, every time, whether the source signals on the subscribing thread or another.
     */
    @Test
    void whatTheSourceSentBeforeItsErrorIsWrittenEveryTime() throws Exception {
        Path target = dir.resolve("partial");
        DefaultDataBufferFactory factory = DefaultDataBufferFactory.sharedInstance;
        for (int run = 0; run < 200; run++) {
            IOException boom = new IOException("upload aborted");
            Flux<DataBuffer> body = Flux.just("foo", "bar")
                    .map(text -> (DataBuffer) factory.wrap(text.getBytes(StandardCharsets.US_ASCII)))
                    .concatWith(Flux.error(boom));
            if (run % 2 == 1) {
                body = body.publishOn(Schedulers.parallel());
            }
            Flux<DataBuffer> source = body;
            Throwable failed = assertThrows(
                    RuntimeException.class,
                    () -> DataBufferFiles.write(source, target).block(WAIT));
            assertEquals(boom, rootOf(failed), "run " + run);
            assertEquals("foobar", Files.readString(target, StandardCharsets.US_ASCII), "run " + run);
        }
    }

    @Test
    void aTargetInAMissingDirectoryFailsTheWriteAndReleasesEveryBufferOnce() throws Exception {
        TrackedBuffers buffers = new TrackedBuffers(random(50_000, 6), 1000, null);

        Throwable failed = assertThrows(
                RuntimeException.class,
                () -> DataBufferFiles.write(
                                buffers.flux(), dir.resolve("missing").resolve("target"))
                        .block(WAIT));

        assertInstanceOf(NoSuchFileException.class, rootOf(failed));
        buffers.awaitAllReleased();
        assertEquals(Collections.nCopies(buffers.createdCount(), 1), buffers.releaseCounts());
    }

    @Test
    void theErrorSignalIsTheFileSystemsOwnExceptionNotAWrapper() {
        Throwable signalled = DataBufferFiles.write(
                        Flux.empty(), dir.resolve("missing").resolve("target"))
                .map(written -> (Throwable) new AssertionError("wrote " + written))
                .onErrorResume(Mono::just)
                .block(WAIT);

        assertInstanceOf(NoSuchFileException.class, signalled, "onErrorResume(NoSuchFileException.class, ...) works");
    }

    @Test
    void aDirectoryAsTargetFailsTheWriteNamingItAndReleasesEveryBufferOnce() throws Exception {
        TrackedBuffers buffers = new TrackedBuffers(random(50_000, 7), 1000, null);

        Throwable failed = assertThrows(
                RuntimeException.class,
                () -> DataBufferFiles.write(buffers.flux(), dir).block(WAIT));

        Throwable cause = rootOf(failed);
        assertInstanceOf(FileSystemException.class, cause);
        assertTrue(cause.getMessage().contains(dir.toString()), cause.getMessage());
        buffers.awaitAllReleased();
        assertEquals(Collections.nCopies(buffers.createdCount(), 1), buffers.releaseCounts());
    }

    @Test
    void nothingStartsUntilSubscribedAndEachSubscriptionWritesAnew() throws Exception {
        byte[] content = random(10_000, 8);
        Path target = dir.resolve("lazy");
        Mono<Long> write =
                DataBufferFiles.write(Flux.defer(() -> new TrackedBuffers(content, 999, null).flux()), target);

        assertTrue(Files.notExists(target), "nothing is opened before subscription");
        assertEquals(content.length, write.block(WAIT));
        Files.delete(target);
        assertEquals(content.length, write.block(WAIT));
        assertArrayEquals(content, Files.readAllBytes(target));
    }

    @Test
    void theSourceSeesTheContextOfTheWritesSubscriber() throws Exception {
        Flux<DataBuffer> source =
                Flux.deferContextual(context -> Flux.just(DefaultDataBufferFactory.sharedInstance.wrap(
                        context.get("user").toString().getBytes(StandardCharsets.UTF_8))));
        Path file = dir.resolve("file");
        Path channelTarget = dir.resolve("channel");

        long written = DataBufferFiles.write(source, file)
                .contextWrite(Context.of("user", "alice"))
                .block(WAIT);
        long writtenToChannel = DataBufferFiles.write(
                        source,
                        FileChannel.open(channelTarget, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                        WriteOptions.defaults())
                .contextWrite(Context.of("user", "bob"))
                .block(WAIT);

        assertEquals(5, written);
        assertEquals("alice", Files.readString(file));
        assertEquals(3, writtenToChannel);
        assertEquals("bob", Files.readString(channelTarget));
    }

    @Test
    void writeWithHandsTheBytesToAnyWriterAndReleasesEachBufferOnceAfterItsBytesAreWritten() throws Exception {
        byte[] content = random(300_000, 8);
        Path target = dir.resolve("any-writer");
        TrackedBuffers buffers = new TrackedBuffers(content, 7000, target);

        long written = DataBufferFiles.writeWith(
                        buffers.flux(), bytes -> ReactiveFile.of(target).write(bytes, WriteOptions.defaults()))
                .block(WAIT);

        assertEquals(content.length, written);
        assertArrayEquals(content, Files.readAllBytes(target));
        buffers.awaitAllReleased();
        assertEquals(List.of(), buffers.problems());
        assertEquals(Collections.nCopies(buffers.createdCount(), 1), buffers.releaseCounts());
    }

    @Test
    void cancellingWriteWithCancelsTheWritersStageAndReleasesEveryBufferSentOnce() throws Exception {
        TrackedBuffers buffers = new TrackedBuffers(random(100_000, 9), 1000, null);
        CountDownLatch someReleased = new CountDownLatch(1);
        CountDownLatch sourceCancelled = new CountDownLatch(1);
        Flux<DataBuffer> endless = Flux.concat(buffers.flux().take(50), Flux.never())
                .doOnNext(buffer -> someReleased.countDown())
                .doOnCancel(sourceCancelled::countDown);
        AtomicReference<CompletableFuture<Long>> stage = new AtomicReference<>();

        Disposable write = DataBufferFiles.writeWith(endless, bytes -> {
                    CompletableFuture<Long> started = ReactiveFile.of(dir.resolve("cancelled-any"))
                            .write(bytes, WriteOptions.defaults())
                            .toCompletableFuture();
                    stage.set(started);
                    return started;
                })
                .subscribe();
        assertTrue(someReleased.await(30, TimeUnit.SECONDS));
        write.dispose();

        assertTrue(sourceCancelled.await(30, TimeUnit.SECONDS), "cancelling the Mono cancels the source");
        assertThrows(CancellationException.class, () -> stage.get().get(30, TimeUnit.SECONDS));
        buffers.awaitAllReleased();
        assertEquals(List.of(), buffers.problems());
        assertEquals(Collections.nCopies(buffers.createdCount(), 1), buffers.releaseCounts());
    }

    @Test
    void nullArgumentsAreNamed() {
        Flux<DataBuffer> none = Flux.empty();
        assertEquals(
                "source",
                assertThrows(NullPointerException.class, () -> DataBufferFiles.write(null, dir.resolve("x")))
                        .getMessage());
        assertEquals(
                "path",
                assertThrows(NullPointerException.class, () -> DataBufferFiles.write(none, (Path) null))
                        .getMessage());
        assertEquals(
                "options",
                assertThrows(NullPointerException.class, () -> DataBufferFiles.write(none, dir.resolve("x"), null))
                        .getMessage());
        assertEquals(
                "channel",
                assertThrows(
                                NullPointerException.class,
                                () -> DataBufferFiles.write(none, (FileChannel) null, WriteOptions.defaults()))
                        .getMessage());
        assertEquals(
                "source",
                assertThrows(NullPointerException.class, () -> DataBufferFiles.writeWith(null, bytes -> null))
                        .getMessage());
        assertEquals(
                "writer",
                assertThrows(NullPointerException.class, () -> DataBufferFiles.writeWith(none, null))
                        .getMessage());
    }

    static Throwable rootOf(Throwable error) {
        Throwable cause = error;
        while (cause.getCause() != null && cause != cause.getCause()) {
            cause = cause.getCause();
        }
        return cause;
    }

    static byte[] random(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }
}
