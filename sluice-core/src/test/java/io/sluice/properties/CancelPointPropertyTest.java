package io.sluice.properties;

import io.sluice.ReactiveFile;
import io.sluice.WriteOptions;
import io.sluice.testing.TestPublishers;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A write completed from outside at any point (after k items, before the upstream's
 * {@code onSubscribe}, from inside the upstream's {@code request}, from a dependent that runs on the
 * emitting thread, by {@code orTimeout(1 ms)}, by {@code complete(0L)}), racing its own end: the
 * stage has exactly one outcome and it agrees with what {@code cancel}/{@code complete} returned;
 * the upstream is cancelled exactly once unless it completed; the target is closed when a dependent
 * of the stage runs; after the stage completes the target never changes again (checked once the
 * executor has been shut down and awaited); it holds a prefix of the bytes (an atomic target: its
 * old content, untouched); and a 5-byte write to the same path right after gives exactly those 5
 * bytes.
 */
class CancelPointPropertyTest {

    private static final byte[] FIVE = {1, 2, 3, 4, 5};

    /** Where the stage is completed from outside. */
    enum CancelPoint {
        AFTER_K_ITEMS,
        BEFORE_ON_SUBSCRIBE,
        INSIDE_REQUEST,
        FROM_A_DEPENDENT,
        OR_TIMEOUT_1_MS,
        COMPLETE_0
    }

    @Provide
    Arbitrary<List<Integer>> sizes() {
        return Items.sizes();
    }

    @Provide
    Arbitrary<ExecutorKind> executors() {
        return Arbitraries.of(ExecutorKind.available());
    }

    @Property(tries = 200)
    void anOutsideCompletionStopsTheWriteForGood(
            @ForAll("sizes") List<Integer> sizes,
            @ForAll Items.Kind buffers,
            @ForAll Upstream.Emission emission,
            @ForAll WriteTarget.Kind targetKind,
            @ForAll("executors") ExecutorKind executorKind,
            @ForAll CancelPoint point,
            @ForAll @IntRange(min = 0, max = 40) int seed)
            throws Exception {
        List<ByteBuffer> items = Items.buffers(sizes, buffers, sizes.hashCode() + seed);
        byte[] data = Items.concat(items);
        Executor executor = executorKind.create();
        WriteOptions options = executor == null
                ? WriteOptions.defaults()
                : WriteOptions.defaults().withExecutor(executor);
        try (WriteTarget target = WriteTarget.create(targetKind, seed)) {
            AtomicReference<CompletableFuture<Long>> stageRef = new AtomicReference<>();
            AtomicReference<Boolean> outsideWon = new AtomicReference<>(); // what cancel(true) or complete(0L) returned
            AtomicInteger outsideCalls = new AtomicInteger();
            CountDownLatch kDelivered = new CountDownLatch(1);
            CompletableFuture<Void> kDeliveredStage = new CompletableFuture<>();
            Upstream upstream = new Upstream(items, emission, point == CancelPoint.BEFORE_ON_SUBSCRIBE)
                    .afterItem(count -> {
                        if (count == seed) {
                            kDelivered.countDown();
                            kDeliveredStage.complete(null);
                        }
                    })
                    .afterComplete(
                            () -> { // k beyond the items: act at the end
                                kDelivered.countDown();
                                kDeliveredStage.complete(null);
                            });
            if (point == CancelPoint.INSIDE_REQUEST) {
                int atCall = 1 + seed % 4;
                upstream.onRequest(call -> {
                    CompletableFuture<Long> stage = stageRef.get();
                    if (call >= atCall && stage != null && outsideCalls.get() == 0) {
                        outsideCalls.incrementAndGet();
                        outsideWon.set(stage.cancel(true));
                    }
                });
            }
            if (seed == 0) {
                kDelivered.countDown();
                kDeliveredStage.complete(null);
            }
            AtomicInteger dependentRuns = new AtomicInteger();
            AtomicReference<List<String>> openInDependent = new AtomicReference<>();
            AtomicLong sizeAtCompletion = new AtomicLong();
            CountDownLatch dependentRan = new CountDownLatch(1);

            CompletableFuture<Long> stage = target.write(upstream, options).toCompletableFuture();
            stage.whenComplete((count, error) -> {
                dependentRuns.incrementAndGet();
                openInDependent.set(target.openNow());
                sizeAtCompletion.set(target.sizeNow());
                dependentRan.countDown();
            });
            stageRef.set(stage);
            switch (point) {
                case AFTER_K_ITEMS:
                    awaitOrDone(kDelivered, stage);
                    outsideCalls.incrementAndGet();
                    outsideWon.set(stage.cancel(true));
                    break;
                case COMPLETE_0:
                    awaitOrDone(kDelivered, stage);
                    outsideCalls.incrementAndGet();
                    outsideWon.set(stage.complete(0L));
                    break;
                case BEFORE_ON_SUBSCRIBE:
                    outsideCalls.incrementAndGet();
                    outsideWon.set(stage.cancel(true));
                    assertTrue(outsideWon.get(), "cancel before onSubscribe lost: " + stage);
                    upstream.start();
                    break;
                case FROM_A_DEPENDENT:
                    kDeliveredStage.thenRun(
                            () -> { // on the emitting thread, between two items
                                outsideCalls.incrementAndGet();
                                outsideWon.set(stage.cancel(true));
                            });
                    break;
                case OR_TIMEOUT_1_MS:
                    stage.orTimeout(1, TimeUnit.MILLISECONDS);
                    break;
                case INSIDE_REQUEST:
                    break;
                default:
                    throw new AssertionError(point);
            }

            Outcome outcome = outcome(
                    stage, point == CancelPoint.COMPLETE_0 && Boolean.TRUE.equals(outsideWon.get()), data.length);
            assertTrue(dependentRan.await(30, TimeUnit.SECONDS), "the stage's dependent never ran");
            upstream.awaitEmitterEnd();
            boolean quiet = ExecutorKind.quiesce(executor); // nothing of the write runs after this
            if (!quiet) {
                Thread.sleep(20); // the library's pool cannot be awaited: look twice
            }
            Statistics.collect(point, outcome);
            String context = " (" + outcome + ", cancel or complete returned " + outsideWon.get() + ")";

            assertEquals(1, dependentRuns.get(), "the stage completed more than once");
            assertNull(upstream.violation.get(), upstream.violation.get());
            assertEquals(
                    List.of(), openInDependent.get(), "open when a dependent of the completed stage ran" + context);
            assertEquals(
                    sizeAtCompletion.get(), target.sizeNow(), "the target changed after the stage completed" + context);
            byte[] content = target.contents();
            boolean agrees;
            if (outcome == Outcome.WRITTEN) {
                agrees = !Boolean.TRUE.equals(outsideWon.get());
                assertTrue(upstream.completed.get(), "the write completed, the upstream did not");
                assertEquals(0, upstream.cancels.get(), "a completed upstream was cancelled");
                assertArrayEquals(target.expected(data), content, "the target's bytes after a completed write");
            } else {
                agrees = point == CancelPoint.OR_TIMEOUT_1_MS
                        ? outcome == Outcome.TIMED_OUT
                        : Boolean.TRUE.equals(returned(outsideWon));
                if (!upstream.completed.get()) {
                    awaitTrue(
                            () -> upstream.cancels.get() > 0,
                            quiet,
                            "the upstream of a write completed from outside was never cancelled" + context);
                }
                assertTrue(upstream.cancels.get() <= 1, "the upstream was cancelled " + upstream.cancels + " times");
                assertPrefix(target, data, content, context);
            }
            if (targetKind == WriteTarget.Kind.FILE_ATOMIC) {
                awaitTrue(
                        () -> uncheckedTemporaries(target).isEmpty(),
                        quiet,
                        "temporaries left: " + uncheckedTemporaries(target) + context);
            }
            if (target.path != null) {
                long five = ReactiveFile.of(target.path)
                        .write(TestPublishers.chunks(FIVE, FIVE.length))
                        .toCompletableFuture()
                        .get(30, TimeUnit.SECONDS);
                assertEquals(FIVE.length, five);
                assertArrayEquals(FIVE, target.contents(), "a new write of 5 bytes right after" + context);
                if (!quiet) {
                    Thread.sleep(20);
                    assertArrayEquals(FIVE, target.contents(), "the old write reached the new file" + context);
                }
            }
            // last, so that the checks above run whatever the outcome: the one outcome is the outside
            // call's (cancel/complete returned true, orTimeout's TimeoutException) exactly when the
            // write did not complete on its own
            assertTrue(
                    agrees,
                    "the stage's outcome disagrees with the outside call: " + outcome
                            + ", cancel(true) or complete(0L) returned " + outsideWon.get() + " at " + point);
        }
    }

    /**
     * The smallest case of the property's outcome check, deterministic: on a direct executor the
     * abort that {@code complete(0L)} triggers runs the drain on the completing thread, and the
     * drain must not complete the stage first with its own {@code CancellationException}.
     */
    @Example
    void completeFromOutsideGivesThatValueAndReturnsTrue() throws Exception {
        try (WriteTarget target = WriteTarget.create(WriteTarget.Kind.FILE, 0)) {
            CompletableFuture<Long> stage = ReactiveFile.of(target.path)
                    .write(silentUpstream(), WriteOptions.defaults().withExecutor(Runnable::run))
                    .toCompletableFuture();

            boolean completed = stage.complete(0L);

            assertEquals("true, completed with 0", completed + ", " + describe(stage));
        }
    }

    /** As above for {@code completeExceptionally}, which {@code orTimeout} calls with a {@code TimeoutException}. */
    @Example
    void completeExceptionallyFromOutsideGivesThatExceptionAndReturnsTrue() throws Exception {
        try (WriteTarget target = WriteTarget.create(WriteTarget.Kind.FILE, 0)) {
            CompletableFuture<Long> stage = ReactiveFile.of(target.path)
                    .write(silentUpstream(), WriteOptions.defaults().withExecutor(Runnable::run))
                    .toCompletableFuture();

            boolean completed = stage.completeExceptionally(new TimeoutException("from outside"));

            assertEquals(
                    "true, failed with java.util.concurrent.TimeoutException: from outside",
                    completed + ", " + describe(stage));
        }
    }

    /** An upstream that subscribes and then never emits, completes or fails. */
    private static org.reactivestreams.Publisher<ByteBuffer> silentUpstream() {
        return subscriber -> subscriber.onSubscribe(new org.reactivestreams.Subscription() {
            @Override
            public void request(long n) {}

            @Override
            public void cancel() {}
        });
    }

    private static String describe(CompletableFuture<Long> stage) throws InterruptedException {
        try {
            return "completed with " + stage.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return "failed with " + e.getCause();
        } catch (CancellationException e) {
            return "failed with " + e;
        } catch (TimeoutException e) {
            throw new AssertionError("the stage never completed", e);
        }
    }

    enum Outcome {
        WRITTEN,
        CANCELLED,
        COMPLETED_WITH_0,
        TIMED_OUT
    }

    /** How the stage ended; a normal value is the write's own unless {@code complete(0L)} returned true. */
    private static Outcome outcome(CompletableFuture<Long> stage, boolean completedWith0, long bytes)
            throws InterruptedException {
        try {
            long count = stage.get(30, TimeUnit.SECONDS);
            if (completedWith0 && count == 0) {
                return Outcome.COMPLETED_WITH_0;
            }
            assertEquals(bytes, count, "the byte count of a completed write");
            return Outcome.WRITTEN;
        } catch (CancellationException e) {
            return Outcome.CANCELLED;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TimeoutException) {
                return Outcome.TIMED_OUT;
            }
            throw new AssertionError("the write failed instead of being cancelled or completing", e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError("the stage never completed: " + stage, e);
        }
    }

    /** What the outside call returned, once it has returned (it may still be running on another thread). */
    private static Boolean returned(AtomicReference<Boolean> outside) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (outside.get() == null && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        return outside.get();
    }

    private static void assertPrefix(WriteTarget target, byte[] data, byte[] content, String context) {
        if (target.kind == WriteTarget.Kind.FILE_ATOMIC) {
            assertArrayEquals(target.before, content, "a cancelled atomic write changed the target" + context);
            return;
        }
        byte[] expected = target.expected(data);
        assertTrue(
                content.length <= expected.length
                        && target.before.length <= content.length
                        && Arrays.equals(content, Arrays.copyOf(expected, content.length)),
                "the target holds " + content.length + " bytes that are not a prefix of the " + expected.length
                        + " expected" + context);
    }

    private static List<String> uncheckedTemporaries(WriteTarget target) {
        try {
            return target.temporaries();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Checks at once after a quiesced executor; polls with a deadline where the library's pool still runs. */
    private static void awaitTrue(BooleanSupplier condition, boolean quiet, String message)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(quiet ? 0 : 10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() >= deadline) {
                fail(message);
            }
            Thread.sleep(5);
        }
    }

    private static void awaitOrDone(CountDownLatch latch, CompletableFuture<?> stage) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!latch.await(1, TimeUnit.MILLISECONDS)) {
            if (stage.isDone()) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, "k items never arrived");
        }
    }
}
