package io.sluice.spring;

import io.sluice.WriteOptions;
import io.sluice.spring.SpringBufferFactories.EachFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The cases of Spring Framework 6.2's {@code DataBufferUtilsTests} (spring-core, read at v6.2.19)
 * that write buffers to a file or a channel, re-expressed against
 * {@link DataBufferFiles#write(org.reactivestreams.Publisher, Path, WriteOptions)} and
 * {@link DataBufferFiles#write(org.reactivestreams.Publisher, WritableByteChannel, WriteOptions)},
 * plus the open modes Spring's {@code write(Publisher, Path, OpenOption...)} takes options for.
 *
 * <p>Each case runs once per factory of {@link SpringBufferFactories} (Netty 4 and Netty 5, pooled
 * and unpooled, heap and direct; Spring's default factory, heap and direct), as Spring's
 * {@code AbstractDataBufferAllocatingTests} runs them. The buffers are the factory's, each wrapped
 * by {@link TrackedBuffers} to count its releases; after every case each one the test made was
 * released exactly once and never before its bytes were in the file, the factory's buffer under it
 * is freed, a pooled Netty 4 allocator has no live allocation, and {@code DataBufferUtils} failed no
 * release ({@link FailedReleaseLog}). Netty's leak detector runs at PARANOID meanwhile.
 *
 * <p>Where sluice answers differently from {@code DataBufferUtils}, by design:
 * <ul>
 *   <li>a channel write gives back no buffers for the caller to release: sluice releases each
 *       itself and emits the byte count, as its path writes do;</li>
 *   <li>a channel given to a write is closed when the write ends, whichever way;</li>
 *   <li>{@link WriteOptions#append()} appends, where Spring's path write refuses {@code APPEND}
 *       (its {@code AsynchronousFileChannel} does not support it).</li>
 * </ul>
 * Not re-expressed: writes to an {@code OutputStream} (sluice's are in {@code ByteStreams}, not
 * for {@code DataBuffer}s) and Spring's {@code outputStreamPublisher} and {@code
 * inputStreamSubscriber}, which touch no file.
 */
@ExtendWith({ParanoidLeakDetection.class, FailedReleaseLog.class})
class SpringDataBufferUtilsWriteCasesTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private DataBufferFactory factory;
    private TrackedBuffers buffers;

    @AfterEach
    void everyBufferWasReleasedOnceAndItsMemoryWentBack() throws InterruptedException {
        if (buffers == null) {
            return;
        }
        buffers.awaitAllReleased();
        assertEquals(List.of(), buffers.problems());
        assertEquals(Collections.nCopies(buffers.createdCount(), 1), buffers.releaseCounts());
        for (DataBuffer underlying : buffers.underlying()) {
            assertTrue(SpringBufferFactories.freed(underlying), "not freed: " + underlying);
        }
        SpringBufferFactories.assertNoLiveAllocations(factory);
    }

    @EachFactory
    void severalBuffersAreWrittenToAPathInOrder(DataBufferFactory factory) throws IOException {
        Path target = dir.resolve("target");

        long written = DataBufferFiles.write(words(factory, target, "foo", "bar", "baz", "qux"), target)
                .block(WAIT);

        assertEquals(12, written);
        assertEquals("foobarbazqux", read(target));
    }

    @EachFactory
    void severalBuffersAreWrittenToAChannelWhichTheWriteThenCloses(DataBufferFactory factory) throws IOException {
        Path target = dir.resolve("target");
        FileChannel channel = FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);

        long written = DataBufferFiles.write(
                        words(factory, target, "foo", "bar", "baz", "qux"), channel, WriteOptions.defaults())
                .block(WAIT);

        assertEquals(12, written);
        assertEquals("foobarbazqux", read(target));
        assertFalse(channel.isOpen());
    }

    @EachFactory
    void aBufferTheFactoryJoinedIsWrittenWholeToAPath(DataBufferFactory factory) throws IOException {
        Path target = dir.resolve("target");

        long written = DataBufferFiles.write(Mono.fromSupplier(() -> joined(factory, target)), target)
                .block(WAIT);

        assertEquals(6, written);
        assertEquals("foobar", read(target));
    }

    @EachFactory
    void aBufferTheFactoryJoinedIsWrittenWholeToAChannel(DataBufferFactory factory) throws IOException {
        Path target = dir.resolve("target");
        FileChannel channel = FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);

        long written = DataBufferFiles.write(
                        Mono.fromSupplier(() -> joined(factory, target)), channel, WriteOptions.defaults())
                .block(WAIT);

        assertEquals(6, written);
        assertEquals("foobar", read(target));
    }

    @EachFactory
    void aSourceFailingAfterTwoBuffersFailsThePathWriteWithItsErrorOnceBothAreWritten(DataBufferFactory factory)
            throws IOException {
        Path target = dir.resolve("target");
        IllegalStateException boom = new IllegalStateException("boom");

        Throwable failure = failureOf(
                DataBufferFiles.write(words(factory, target, "foo", "bar").concatWith(Mono.error(boom)), target));

        assertSame(boom, failure);
        assertEquals("foobar", read(target));
    }

    @EachFactory
    void aSourceFailingAfterTwoBuffersFailsTheChannelWriteWithItsErrorOnceBothAreWritten(DataBufferFactory factory)
            throws IOException {
        Path target = dir.resolve("target");
        FileChannel channel = FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        IllegalStateException boom = new IllegalStateException("boom");

        Throwable failure = failureOf(DataBufferFiles.write(
                words(factory, target, "foo", "bar").concatWith(Mono.error(boom)), channel, WriteOptions.defaults()));

        assertSame(boom, failure);
        assertEquals("foobar", read(target));
        assertFalse(channel.isOpen());
    }

    @EachFactory
    void aChannelFailingAfterTheFirstBufferFailsTheWriteWithThatError(DataBufferFactory factory) {
        FailsAfterThreeBytes channel = new FailsAfterThreeBytes();

        Throwable failure =
                failureOf(DataBufferFiles.write(words(factory, null, "foo", "bar"), channel, WriteOptions.defaults()));

        assertSame(channel.failure, failure);
        assertEquals("foo", channel.received());
        assertFalse(channel.isOpen());
    }

    @EachFactory
    void cancellingAPathWriteOnceTheFirstBufferIsWrittenKeepsThatBuffer(DataBufferFactory factory) throws Exception {
        Path target = dir.resolve("target");

        cancelOnceTheFirstIsReleased(factory, target, source -> DataBufferFiles.write(source, target));

        assertEquals("foo", read(target));
    }

    @EachFactory
    void cancellingAChannelWriteOnceTheFirstBufferIsWrittenKeepsThatBufferAndClosesTheChannel(DataBufferFactory factory)
            throws Exception {
        Path target = dir.resolve("target");
        FileChannel channel = FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);

        cancelOnceTheFirstIsReleased(
                factory, target, source -> DataBufferFiles.write(source, channel, WriteOptions.defaults()));

        assertEquals("foo", read(target));
        awaitClosed(channel);
    }

    @EachFactory
    void cancellingAnAtomicReplaceLeavesTheOldFileAndNoOther(DataBufferFactory factory) throws Exception {
        // Differs from Spring, whose cancelled write leaves what it wrote: the whole file or nothing.
        Path target = Files.writeString(dir.resolve("target"), "old content");

        cancelOnceTheFirstIsReleased(
                factory,
                null,
                source -> DataBufferFiles.write(
                        source, target, WriteOptions.defaults().withAtomicReplace()));

        assertEquals("old content", read(target));
        awaitOnly(target);
    }

    @EachFactory
    void anExistingFileIsTruncatedByDefaultAsSpringsDefaultOptionsDo(DataBufferFactory factory) throws IOException {
        Path target = Files.writeString(dir.resolve("target"), "a longer content than the new one");

        long written = DataBufferFiles.write(words(factory, target, "foo", "bar"), target)
                .block(WAIT);

        assertEquals(6, written);
        assertEquals("foobar", read(target));
    }

    @EachFactory
    void anExistingFileIsAppendedToInAppendMode(DataBufferFactory factory) throws IOException {
        Path target = Files.writeString(dir.resolve("target"), "abc");

        long written = DataBufferFiles.write(words(factory, null, "foo", "bar"), target, WriteOptions.append())
                .block(WAIT);

        assertEquals(6, written);
        assertEquals("abcfoobar", read(target));
    }

    @EachFactory
    void createNewRefusesAnExistingFileAndLeavesIt(DataBufferFactory factory) throws IOException {
        Path target = Files.writeString(dir.resolve("target"), "abc");

        Throwable failure =
                failureOf(DataBufferFiles.write(words(factory, null, "foo", "bar"), target, WriteOptions.createNew()));

        assertInstanceOf(FileAlreadyExistsException.class, failure);
        assertEquals("abc", read(target));
    }

    @EachFactory
    void createNewCreatesAMissingFile(DataBufferFactory factory) throws IOException {
        Path target = dir.resolve("target");

        long written = DataBufferFiles.write(words(factory, target, "foo", "bar"), target, WriteOptions.createNew())
                .block(WAIT);

        assertEquals(6, written);
        assertEquals("foobar", read(target));
    }

    @EachFactory
    void anAtomicReplaceReplacesAnExistingFileAndLeavesNoOther(DataBufferFactory factory) throws IOException {
        Path target = Files.writeString(dir.resolve("target"), "a longer content than the new one");

        long written = DataBufferFiles.write(
                        words(factory, null, "foo", "bar"),
                        target,
                        WriteOptions.defaults().withAtomicReplace())
                .block(WAIT);

        assertEquals(6, written);
        assertEquals("foobar", read(target));
        assertEquals(List.of(target), list(dir));
    }

    @EachFactory
    void theSourceIsSubscribedWithTheContextThePathWriteIsSubscribedWith(DataBufferFactory factory) throws IOException {
        Path target = dir.resolve("target");
        Flux<DataBuffer> source = words(factory, target, "foo", "bar").transformDeferredContextual((flux, context) -> {
            assertEquals("TEST", context.getOrDefault("key", "EMPTY"));
            return flux;
        });

        long written = DataBufferFiles.write(source, target)
                .transformDeferredContextual((mono, context) -> {
                    assertEquals("TEST", context.getOrDefault("key", "EMPTY"));
                    return mono;
                })
                .contextWrite(Context.of("key", "TEST"))
                .block(WAIT);

        assertEquals(6, written);
        assertEquals("foobar", read(target));
    }

    @EachFactory
    void theSourceIsSubscribedWithTheContextTheChannelWriteIsSubscribedWith(DataBufferFactory factory)
            throws IOException {
        Path target = dir.resolve("target");
        FileChannel channel = FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        Flux<DataBuffer> source = words(factory, target, "foo", "bar").transformDeferredContextual((flux, context) -> {
            assertEquals("TEST", context.getOrDefault("key", "EMPTY"));
            return flux;
        });

        long written = DataBufferFiles.write(source, channel, WriteOptions.defaults())
                .contextWrite(Context.of("key", "TEST"))
                .block(WAIT);

        assertEquals(6, written);
        assertEquals("foobar", read(target));
    }

    @EachFactory
    void aMissingDirectoryFailsTheWriteWithNoSuchFile(DataBufferFactory factory) {
        Throwable failure = failureOf(DataBufferFiles.write(
                words(factory, null, "foo", "bar"), dir.resolve("missing").resolve("target")));

        assertInstanceOf(NoSuchFileException.class, failure);
    }

    @EachFactory
    void aDirectoryAsTargetIsRefused(DataBufferFactory factory) throws IOException {
        Path directory = Files.createDirectory(dir.resolve("directory"));

        Throwable failure = failureOf(DataBufferFiles.write(words(factory, null, "foo", "bar"), directory));

        assertInstanceOf(FileSystemException.class, failure);
        assertTrue(Files.isDirectory(directory));
    }

    @EachFactory
    void aFifoAsTargetIsRefusedBeforeItIsOpened(DataBufferFactory factory) throws Exception {
        // Differs from Spring, whose write opens the FIFO and waits for a reader: sluice writes regular files only.
        Path fifo = dir.resolve("fifo");
        assumeTrue(mkfifo(fifo), "mkfifo is not available here");

        Throwable failure = failureOf(DataBufferFiles.write(words(factory, null, "foo", "bar"), fifo));

        assertInstanceOf(FileSystemException.class, failure);
    }

    /**
     * {@code words} as tracked buffers of {@code factory}, each made when it is requested; with a
     * {@code target}, each release is checked to come after the word is in that file.
     */
    private Flux<DataBuffer> words(DataBufferFactory factory, Path target, String... words) {
        int[] ends = new int[words.length];
        int end = 0;
        for (int index = 0; index < words.length; index++) {
            end += words[index].length();
            ends[index] = end;
        }
        this.factory = factory;
        this.buffers =
                new TrackedBuffers(factory, String.join("", words).getBytes(StandardCharsets.US_ASCII), ends, target);
        return buffers.flux();
    }

    /** "foobar" as the factory joins "foo" and "bar": a composite with Netty, a copy otherwise. */
    private DataBuffer joined(DataBufferFactory factory, Path target) {
        this.factory = factory;
        this.buffers = new TrackedBuffers(factory, bytes("foobar"), new int[] {6}, target);
        DataBuffer foo = factory.allocateBuffer(3).write(bytes("foo"));
        DataBuffer bar = factory.allocateBuffer(3).write(bytes("bar"));
        return buffers.adopt(factory.join(List.of(foo, bar)), 0, 6);
    }

    /**
     * Writes "foo" and then nothing with {@code write}, cancels the write once "foo" was released
     * (its bytes written), and waits for the source to see the cancel.
     */
    private void cancelOnceTheFirstIsReleased(
            DataBufferFactory factory, Path target, Function<Flux<DataBuffer>, Mono<Long>> write)
            throws InterruptedException {
        CountDownLatch sourceCancelled = new CountDownLatch(1);
        Flux<DataBuffer> source =
                words(factory, target, "foo").concatWith(Flux.never()).doOnCancel(sourceCancelled::countDown);

        AtomicReference<Object> ended = new AtomicReference<>();
        Disposable writing = write.apply(source).subscribe(ended::set, ended::set);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (buffers.createdCount() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        buffers.awaitAllReleased();
        assertEquals(1, buffers.createdCount());
        writing.dispose();

        assertTrue(sourceCancelled.await(30, TimeUnit.SECONDS), "the source was cancelled");
        assertEquals(null, ended.get(), "a cancelled write signals nothing");
    }

    /** The error {@code write} fails with, as its subscriber receives it. */
    private static Throwable failureOf(Mono<Long> write) {
        return write.<Throwable>map(written -> new AssertionError("the write succeeded with " + written + " bytes"))
                .onErrorResume(Mono::just)
                .block(WAIT);
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.US_ASCII);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static List<Path> list(Path directory) throws IOException {
        try (Stream<Path> entries = Files.list(directory)) {
            return entries.toList();
        }
    }

    /** Waits until {@code directory}'s entries are {@code only} (a cancelled write deletes its own after the cancel). */
    private void awaitOnly(Path only) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!list(dir).equals(List.of(only)) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertEquals(List.of(only), list(dir));
    }

    /** The write closes its channel as it ends, which a cancel only starts. */
    private static void awaitClosed(WritableByteChannel channel) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (channel.isOpen() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertFalse(channel.isOpen(), "the channel is closed");
    }

    private static boolean mkfifo(Path fifo) throws InterruptedException {
        try {
            return new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * A channel that takes 3 bytes, the first word, and fails every write after those: the writer
     * may hand it both words in one write, so its failure cannot wait for a second call.
     */
    private static final class FailsAfterThreeBytes implements WritableByteChannel {
        final IOException failure = new IOException("the channel takes 3 bytes");
        private final ByteArrayOutputStream received = new ByteArrayOutputStream(); // guarded by this
        private volatile boolean open = true;

        synchronized String received() {
            return received.toString(StandardCharsets.US_ASCII);
        }

        @Override
        public synchronized int write(ByteBuffer source) throws IOException {
            int bytes = Math.min(source.remaining(), 3 - received.size());
            if (bytes == 0 && source.hasRemaining()) {
                throw failure;
            }
            byte[] taken = new byte[bytes];
            source.get(taken);
            received.writeBytes(taken);
            return bytes;
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public void close() {
            open = false;
        }
    }
}
