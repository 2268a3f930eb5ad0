package io.sluice;

import io.sluice.demand.Demand;
import io.sluice.demand.DemandStrategy;
import io.sluice.testing.Bytes;
import io.sluice.testing.TestPublishers;
import io.sluice.testkit.OpenFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReactiveFileWriteTest {

    @TempDir
    Path dir;

    static Stream<DemandStrategy> strategies() {
        return Stream.of(Demand.adaptive(), Demand.fixed(16, 4), Demand.oneByOne(), Demand.unbounded());
    }

    private static long join(java.util.concurrent.CompletionStage<Long> stage) {
        try {
            return stage.toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static Throwable failureOf(java.util.concurrent.CompletionStage<Long> stage) {
        CompletionException exception = assertThrows(
                CompletionException.class,
                () -> stage.toCompletableFuture()
                        .orTimeout(30, TimeUnit.SECONDS)
                        .join());
        return exception.getCause();
    }

    @ParameterizedTest
    @MethodSource("strategies")
    void writesEveryByteAndCompletesWithTheCount(DemandStrategy strategy) throws IOException {
        byte[] content = Bytes.random(3 * 1024 * 1024 + 11, 1);
        Path file = dir.resolve("out");
        long written = join(ReactiveFile.of(file)
                .write(
                        TestPublishers.chunks(content, 1024),
                        WriteOptions.defaults().withDemand(strategy)));
        assertEquals(content.length, written);
        assertArrayEquals(content, Files.readAllBytes(file));
    }

    @Test
    void truncatesByDefault() throws IOException {
        Path file = Bytes.file(dir, "out", Bytes.random(5000, 2));
        join(ReactiveFile.of(file).write(TestPublishers.chunks(new byte[] {9, 8}, 1)));
        assertArrayEquals(new byte[] {9, 8}, Files.readAllBytes(file));
    }

    @Test
    void appends() throws IOException {
        Path file = Bytes.file(dir, "out", new byte[] {1, 2});
        join(ReactiveFile.of(file).write(TestPublishers.chunks(new byte[] {3, 4}, 1), WriteOptions.append()));
        assertArrayEquals(new byte[] {1, 2, 3, 4}, Files.readAllBytes(file));
    }

    @Test
    void createNewRefusesAnExistingFileAndCancelsUpstream() throws IOException {
        Path file = Bytes.file(dir, "out", new byte[] {1});
        TestPublishers.Recording upstream = TestPublishers.chunks(new byte[] {7}, 1);
        Throwable failure = failureOf(ReactiveFile.of(file).write(upstream, WriteOptions.createNew()));
        assertInstanceOf(FileAlreadyExistsException.class, failure);
        assertTrue(upstream.cancelled.get());
        assertArrayEquals(new byte[] {1}, Files.readAllBytes(file));
        join(ReactiveFile.of(dir.resolve("fresh"))
                .write(TestPublishers.chunks(new byte[] {7}, 1), WriteOptions.createNew()));
        assertArrayEquals(new byte[] {7}, Files.readAllBytes(dir.resolve("fresh")));
    }

    @Test
    void syncForcesBeforeCompleting() throws IOException {
        byte[] content = Bytes.random(100_000, 3);
        Path file = dir.resolve("out");
        assertEquals(
                content.length,
                join(ReactiveFile.of(file)
                        .write(
                                TestPublishers.chunks(content, 4096),
                                WriteOptions.defaults().withSync())));
        assertArrayEquals(content, Files.readAllBytes(file));
    }

    @Test
    void anEmptyPublisherCreatesAnEmptyFile() {
        Path file = dir.resolve("empty");
        assertEquals(0L, join(ReactiveFile.of(file).write(TestPublishers.chunks(new byte[0], 1))));
        assertTrue(Files.exists(file));
    }

    @Test
    void aMissingParentFailsWithNoSuchFileException() {
        Throwable failure = failureOf(
                ReactiveFile.of(dir.resolve("no/such/dir/out")).write(TestPublishers.chunks(new byte[] {1}, 1)));
        assertInstanceOf(NoSuchFileException.class, failure);
    }

    @Test
    void aDirectoryTargetFailsWithAnIOException() {
        Throwable failure = failureOf(ReactiveFile.of(dir).write(TestPublishers.chunks(new byte[] {1}, 1)));
        assertInstanceOf(IOException.class, failure);
    }

    @Test
    void upstreamErrorFailsTheStageWithThatErrorAndClosesTheFile() {
        IOException error = new IOException("producer died");
        Throwable failure = failureOf(ReactiveFile.of(dir.resolve("out"))
                .write(TestPublishers.failingAt(Bytes.random(100_000, 4), 1024, 50, error)));
        assertSame(error, failure);
        OpenFiles.awaitNoneUnder(dir);
    }

    @Test
    void anUpstreamIgnoringDemandFailsCitingRule_1_1() {
        TestPublishers.Recording upstream = TestPublishers.ignoringDemand(Bytes.random(1_000_000, 5), 1024);
        Throwable failure = failureOf(ReactiveFile.of(dir.resolve("out")).write(upstream));
        assertInstanceOf(IllegalStateException.class, failure);
        assertTrue(
                failure.getMessage().startsWith("§1.1: upstream sent item #2 but only 1 were requested"),
                failure.getMessage());
        assertTrue(upstream.cancelled.get());
    }

    @Test
    void cancellingTheStageCancelsUpstreamAndClosesTheFile() throws Exception {
        NeverEndingPublisher upstream = new NeverEndingPublisher();
        CompletableFuture<Long> stage =
                ReactiveFile.of(dir.resolve("out")).write(upstream).toCompletableFuture();
        assertTrue(upstream.firstRequest.await(10, TimeUnit.SECONDS));
        assertTrue(stage.cancel(true));
        assertTrue(upstream.cancelled.await(10, TimeUnit.SECONDS));
        OpenFiles.awaitNoneUnder(dir);
        assertThrows(CancellationException.class, stage::join);
    }

    @Test
    void aTimeoutOnTheStageAbortsTheWrite() throws Exception {
        NeverEndingPublisher upstream = new NeverEndingPublisher();
        CompletableFuture<Long> stage = ReactiveFile.of(dir.resolve("out"))
                .write(upstream)
                .toCompletableFuture()
                .orTimeout(50, TimeUnit.MILLISECONDS);
        assertTrue(upstream.cancelled.await(10, TimeUnit.SECONDS));
        OpenFiles.awaitNoneUnder(dir);
        assertInstanceOf(
                java.util.concurrent.TimeoutException.class,
                assertThrows(CompletionException.class, stage::join).getCause());
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aPublisherThatNeverSubscribesIsEndedOnlyByTheCallersTimeout(boolean atomic) throws Exception {
        WriteOptions options = atomic ? WriteOptions.defaults().withAtomicReplace() : WriteOptions.defaults();
        List<String> baseline = OpenFiles.targets();
        SilentPublisher forgotten = new SilentPublisher();
        CompletableFuture<Long> pending = ReactiveFile.of(dir.resolve("pending"))
                .write(forgotten, options)
                .toCompletableFuture();
        SilentPublisher silent = new SilentPublisher();
        CompletableFuture<Long> timed = ReactiveFile.of(dir.resolve("out"))
                .write(silent, options)
                .toCompletableFuture()
                .orTimeout(100, TimeUnit.MILLISECONDS);

        Throwable failure = assertThrows(
                        java.util.concurrent.ExecutionException.class, () -> timed.get(10, TimeUnit.SECONDS))
                .getCause();
        assertInstanceOf(java.util.concurrent.TimeoutException.class, failure);
        assertFalse(pending.isDone(), "without a timeout nothing ends the write");
        OpenFiles.awaitClosed(dir, baseline);
        assertEquals(List.of(), listing(dir), "nothing was created, not even a temporary file");

        RecordingSubscription late = new RecordingSubscription();
        silent.subscriber.onSubscribe(late); // a subscription after the end is cancelled
        assertTrue(late.cancelled.await(10, TimeUnit.SECONDS));
        assertEquals(0, late.requested.get(), "and nothing is requested from it");
        assertEquals(List.of(), listing(dir));

        assertTrue(pending.cancel(true));
        assertTrue(pending.isCancelled());
        assertEquals(List.of(), listing(dir));
    }

    @Test
    void writesAFlowPublisher() throws IOException {
        byte[] content = Bytes.random(200_000, 6);
        Path file = dir.resolve("out");
        java.util.concurrent.Flow.Publisher<java.nio.ByteBuffer> flow =
                org.reactivestreams.FlowAdapters.toFlowPublisher(TestPublishers.chunks(content, 1000));
        assertEquals(content.length, join(ReactiveFile.of(file).write(flow)));
        assertArrayEquals(content, Files.readAllBytes(file));
    }

    @Test
    void writesOneOfOurOwnPublishersWithoutAdapters() throws IOException {
        byte[] content = Bytes.random(500_000, 7);
        Path source = Bytes.file(dir, "in", content);
        Path target = dir.resolve("out");
        assertEquals(
                content.length,
                join(ReactiveFile.of(target).write(ReactiveFile.of(source).read())));
        assertArrayEquals(content, Files.readAllBytes(target));
    }

    @Test
    void requestAndCancelOnUpstreamAreNeverConcurrent_2_7() {
        for (int i = 0; i < 200; i++) {
            TestPublishers.Recording upstream = TestPublishers.chunks(Bytes.random(64 * 1024, i), 512);
            CompletableFuture<Long> stage = ReactiveFile.of(dir.resolve("out" + i))
                    .write(upstream, WriteOptions.defaults().withDemand(Demand.fixed(8, 2)))
                    .toCompletableFuture();
            if (i % 2 == 0) {
                stage.cancel(true);
            }
            try {
                stage.get(30, TimeUnit.SECONDS);
            } catch (Exception expected) {
                // cancelled ones
            }
            assertNull(upstream.concurrentCall.get());
        }
    }

    @Test
    void badArgumentsThrowAtTheCall() {
        ReactiveFile file = ReactiveFile.of(dir.resolve("out"));
        assertThrows(
                NullPointerException.class,
                () -> file.write((org.reactivestreams.Publisher<java.nio.ByteBuffer>) null));
        assertThrows(NullPointerException.class, () -> file.write(TestPublishers.chunks(new byte[0], 1), null));
        assertEquals(
                "maxQueuedBytes must be positive, was 0",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> WriteOptions.defaults().withMaxQueuedBytes(0))
                        .getMessage());
        assertThrows(NullPointerException.class, () -> WriteOptions.defaults().withDemand(null));
        assertThrows(NullPointerException.class, () -> WriteOptions.defaults().withExecutor(null));
    }

    /** Never completes; records the first request and the cancel. */
    private static List<String> listing(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(path -> path.getFileName().toString()).sorted().toList();
        }
    }

    /** Keeps its subscriber and never calls it: no {@code onSubscribe}, no terminal signal. */
    static final class SilentPublisher implements org.reactivestreams.Publisher<java.nio.ByteBuffer> {
        volatile org.reactivestreams.Subscriber<? super java.nio.ByteBuffer> subscriber; // subscribing thread -> test

        @Override
        public void subscribe(org.reactivestreams.Subscriber<? super java.nio.ByteBuffer> subscriber) {
            this.subscriber = subscriber;
        }
    }

    /** Counts what the writer asks of it. */
    static final class RecordingSubscription implements org.reactivestreams.Subscription {
        final java.util.concurrent.atomic.AtomicLong requested =
                new java.util.concurrent.atomic.AtomicLong(); // writer's drain -> test
        final java.util.concurrent.CountDownLatch cancelled = new java.util.concurrent.CountDownLatch(1);

        @Override
        public void request(long n) {
            requested.addAndGet(n);
        }

        @Override
        public void cancel() {
            cancelled.countDown();
        }
    }

    static final class NeverEndingPublisher implements org.reactivestreams.Publisher<java.nio.ByteBuffer> {
        final java.util.concurrent.CountDownLatch firstRequest = new java.util.concurrent.CountDownLatch(1);
        final java.util.concurrent.CountDownLatch cancelled = new java.util.concurrent.CountDownLatch(1);

        @Override
        public void subscribe(org.reactivestreams.Subscriber<? super java.nio.ByteBuffer> subscriber) {
            subscriber.onSubscribe(new org.reactivestreams.Subscription() {
                @Override
                public void request(long n) {
                    firstRequest.countDown();
                }

                @Override
                public void cancel() {
                    cancelled.countDown();
                }
            });
        }
    }
}
