package io.sluice.reliability;

import io.sluice.ReactiveFile;
import io.sluice.ReadOptions;
import io.sluice.WriteOptions;
import io.sluice.demand.Demand;
import io.sluice.demand.DemandController;
import io.sluice.demand.DemandState;
import io.sluice.demand.DemandStrategy;
import io.sluice.testkit.OpenFiles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import reactor.core.publisher.Flux;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Faults of the parties around an operation: a failing or misbehaving upstream, a throwing
 * subscriber, an executor that refuses work. Each ends in one error carrying the cause, with the
 * file closed (the fault matrix in docs/RELIABILITY.md).
 */
class ProtocolFaultsTest {

    /** The System.Logger ReadSubscription logs to (its class name). */
    private static final String READ_SUBSCRIPTION_LOGGER = "io.sluice.internal.read.ReadSubscription";
    /** fixed(4, 1) holds at most 4 + 1 items: the window the flooding test checks against. */
    private static final int WINDOW_ITEMS = 4 + 1;

    private static final int FLOOD_ITEM_BYTES = 1024;

    @TempDir
    Path directory;

    private List<String> baselineFds;
    private ExecutorService pool;

    @BeforeEach
    void baseline() {
        baselineFds = OpenFiles.targets();
        pool = Executors.newFixedThreadPool(2);
    }

    @AfterEach
    void stopPool() throws InterruptedException {
        pool.shutdownNow();
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
    }

    @Test
    void upstreamOnErrorAtRandomPointsFailsTheWriteWithThatError() {
        Random random = new Random(11);
        for (int run = 0; run < 30; run++) {
            List<ByteBuffer> items = Content.items(Content.bytes(run, 200_000), 20_000, random);
            int failAfter = random.nextInt(items.size() + 1);
            IOException injected = new IOException("injected after item " + failAfter);
            Flux<ByteBuffer> upstream =
                    Flux.fromIterable(items.subList(0, failAfter)).concatWith(Flux.error(injected));

            Throwable failure = Stages.failure(
                    ReactiveFile.of(directory.resolve("out" + run)).write(upstream));

            assertSame(injected, failure, "run " + run);
        }
        OpenFiles.awaitClosed(directory, baselineFds);
    }

    @Test
    void anUpstreamThrowingFromRequestFailsTheWriteWithThatException() {
        IllegalStateException thrown = new IllegalStateException("request exploded");
        AtomicInteger cancels = new AtomicInteger();
        Publisher<ByteBuffer> upstream = subscriber -> subscriber.onSubscribe(new Subscription() {
            @Override
            public void request(long n) {
                throw thrown; // violates §3.16's spirit: request must return normally
            }

            @Override
            public void cancel() {
                cancels.incrementAndGet();
            }
        });

        Throwable failure =
                Stages.failure(ReactiveFile.of(directory.resolve("out")).write(upstream));

        assertSame(thrown, failure);
        AtomicReplaceTest.awaitEquals(1, cancels, "the throwing upstream is cancelled once");
        OpenFiles.awaitClosed(directory, baselineFds);
        assertEquals(1, cancels.get(), "cancelled exactly once, also after the file was closed");
    }

    @Test
    void aSubscriberThrowingFromOnNextIsTreatedAsCancelledAndLogged_2_13() throws Exception {
        Path file = Files.write(directory.resolve("in"), Content.bytes(1, 1024 * 1024));
        AtomicInteger signalsAfterThrow = new AtomicInteger();
        AtomicBoolean thrown = new AtomicBoolean();
        CountDownLatch threw = new CountDownLatch(1);
        IllegalStateException violation = new IllegalStateException("§2.13 violated on purpose");
        try (LogCapture log = LogCapture.of(READ_SUBSCRIPTION_LOGGER)) {
            ReactiveFile.of(file)
                    .read(ReadOptions.defaults().withChunkSize(8192))
                    .subscribe(new Subscriber<>() {
                        @Override
                        public void onSubscribe(Subscription subscription) {
                            subscription.request(Long.MAX_VALUE);
                        }

                        @Override
                        public void onNext(ByteBuffer chunk) {
                            if (thrown.getAndSet(true)) {
                                signalsAfterThrow.incrementAndGet();
                                return;
                            }
                            threw.countDown();
                            throw violation;
                        }

                        @Override
                        public void onError(Throwable error) {
                            signalsAfterThrow.incrementAndGet();
                        }

                        @Override
                        public void onComplete() {
                            signalsAfterThrow.incrementAndGet();
                        }
                    });

            assertTrue(threw.await(30, TimeUnit.SECONDS));
            OpenFiles.awaitClosed(directory, baselineFds); // the file is closed as on cancel, after the log call
            assertEquals(0, signalsAfterThrow.get(), "§2.13: the subscription is cancelled, nothing more is signalled");
            assertEquals(
                    1,
                    log.count("§2.13: onNext threw; subscription cancelled"),
                    "the subscriber's failure is logged once, naming §2.13: " + log.text());
            assertEquals(1, log.count(violation.toString()), "with the subscriber's own exception: " + log.text());
        }
    }

    @Test
    void anUpstreamIgnoringDemandFailsTheWriteNaming_1_1AndQueuesNothingBeyondTheWindow() throws Exception {
        AtomicInteger cancels = new AtomicInteger();
        AtomicInteger sent = new AtomicInteger();
        Publisher<ByteBuffer> flooding = subscriber -> subscriber.onSubscribe(new Subscription() {
            private volatile boolean cancelled;

            @Override
            public void request(long n) {
                for (int i = 0; i < 10_000 && !cancelled; i++) { // §1.1 violated: ignores n
                    sent.incrementAndGet();
                    subscriber.onNext(ByteBuffer.allocate(FLOOD_ITEM_BYTES));
                }
            }

            @Override
            public void cancel() {
                cancelled = true;
                cancels.incrementAndGet();
            }
        });

        Path out = directory.resolve("out");
        Throwable failure = Stages.failure(
                ReactiveFile.of(out).write(flooding, WriteOptions.defaults().withDemand(Demand.fixed(4, 1))));

        assertInstanceOf(IllegalStateException.class, failure);
        Matcher counts = Pattern.compile("§1\\.1: upstream sent item #(\\d+) but only (\\d+) were requested")
                .matcher(failure.getMessage());
        assertTrue(counts.find(), failure.getMessage());
        long firstExcess = Long.parseLong(counts.group(1));
        long requested = Long.parseLong(counts.group(2));
        assertTrue(requested <= WINDOW_ITEMS, "W3: never more than the window requested: " + failure.getMessage());
        assertEquals(requested + 1, firstExcess, "W5: the very first item beyond the request fails the write");
        assertTrue(sent.get() > WINDOW_ITEMS, "the upstream really flooded: it sent " + sent.get() + " items");
        assertTrue(
                Files.size(out) <= requested * FLOOD_ITEM_BYTES,
                "W5: of the " + sent.get() + " items sent, none beyond the " + requested
                        + " requested reached the file: " + Files.size(out) + " bytes");
        AtomicReplaceTest.awaitEquals(1, cancels, "the flooding upstream is cancelled once");
        OpenFiles.awaitClosed(directory, baselineFds);
        assertEquals(1, cancels.get(), "cancelled exactly once, also after the file was closed");
    }

    @Test
    void anExecutorThatRejectsFailsEveryOperationWithRejectedExecution() throws Exception {
        RejectedExecutionException refusal = new RejectedExecutionException("no room");
        Executor rejecting = task -> {
            throw refusal;
        };
        Path source = Files.write(directory.resolve("in"), Content.bytes(2, 10_000));

        Throwable write = Stages.failure(ReactiveFile.of(directory.resolve("out"))
                .write(
                        Flux.just(ByteBuffer.allocate(10)),
                        WriteOptions.defaults().withExecutor(rejecting)));
        Throwable copy = Stages.failure(ReactiveFile.of(source)
                .copyTo(directory.resolve("copy"), WriteOptions.defaults().withExecutor(rejecting)));
        RecordingSubscriber reader = new RecordingSubscriber(1);
        ReactiveFile.of(source)
                .read(ReadOptions.defaults().withExecutor(rejecting))
                .subscribe(reader);
        Throwable read = reader.awaitOneError();

        for (Throwable failure : List.of(write, copy, read)) {
            assertInstanceOf(RejectedExecutionException.class, failure);
            assertSame(refusal, failure.getCause(), "the executor's own exception is the cause");
        }
        OpenFiles.awaitClosed(directory, baselineFds);
    }

    @Test
    void anExecutorShutDownMidWriteFailsItClosesTheFileAndCancelsUpstream() {
        AtomicInteger cancels = new AtomicInteger();
        Executor closing = new ClosingExecutor(pool, 5);

        Throwable failure = Stages.failure(ReactiveFile.of(directory.resolve("out"))
                .write(
                        FilesystemFaultsTest.endless(cancels),
                        WriteOptions.defaults().withExecutor(closing)));

        assertInstanceOf(RejectedExecutionException.class, failure);
        AtomicReplaceTest.awaitEquals(1, cancels, "upstream cancelled once");
        OpenFiles.awaitClosed(directory, baselineFds);
    }

    @Test
    void anExecutorShutDownMidReadOrCopyFailsItAndClosesTheFiles() throws Exception {
        Path source = Files.write(directory.resolve("in"), Content.bytes(3, 20 * 1024 * 1024));

        RecordingSubscriber reader = new RecordingSubscriber(Long.MAX_VALUE);
        ReactiveFile.of(source)
                .read(ReadOptions.defaults().withChunkSize(4096).withExecutor(new ClosingExecutor(pool, 3)))
                .subscribe(reader);
        assertInstanceOf(RejectedExecutionException.class, reader.awaitOneError());
        assertFalse(reader.chunks.isEmpty(), "the read was under way when the executor closed");

        Throwable copy = Stages.failure(ReactiveFile.of(source)
                .copyTo(directory.resolve("copy"), WriteOptions.defaults().withExecutor(new ClosingExecutor(pool, 1))));
        assertInstanceOf(RejectedExecutionException.class, copy);
        OpenFiles.awaitClosed(directory, baselineFds);
    }

    @Test
    void aDemandControllerThatThrowsFailsTheWriteAndClosesTheFile() {
        IllegalStateException broken = new IllegalStateException("custom controller is broken");
        DemandStrategy throwing = () -> new DemandController() {
            private int calls;

            @Override
            public long nextRequest(DemandState state) {
                if (++calls == 3) {
                    throw broken; // mid-write, with the file open
                }
                return 1;
            }

            @Override
            public long windowItems() {
                throw broken; // the writer never needs it; a listener's snapshot would
            }

            @Override
            public String describe() {
                return "throwing";
            }
        };
        AtomicInteger cancels = new AtomicInteger();

        Throwable failure = Stages.failure(
                ReactiveFile.of(directory.resolve("out"))
                        .write(
                                FilesystemFaultsTest.endless(cancels),
                                WriteOptions.defaults().withDemand(throwing)),
                10);

        assertSame(broken, failure);
        AtomicReplaceTest.awaitEquals(1, cancels, "upstream is cancelled when the controller throws");
        OpenFiles.awaitClosed(directory, baselineFds);
        assertEquals(1, cancels.get(), "cancelled exactly once, also after the file was closed");
    }

    /** Runs the first {@code accepted} tasks on a pool, then refuses every task, as a shut-down pool does. */
    private static final class ClosingExecutor implements Executor {
        private final Executor delegate;
        private final AtomicInteger left;

        ClosingExecutor(Executor delegate, int accepted) {
            this.delegate = delegate;
            this.left = new AtomicInteger(accepted);
        }

        @Override
        public void execute(Runnable task) {
            if (left.getAndDecrement() <= 0) {
                throw new RejectedExecutionException("shut down after its first tasks");
            }
            delegate.execute(task);
        }
    }
}
