package io.sluice.tck.race;

import io.sluice.tck.support.AsyncUpstream;
import io.sluice.tck.support.CheckedSubscription;
import io.sluice.tck.support.SynchronousUpstream;
import io.sluice.tck.write.Write;
import io.sluice.tck.write.WriterCase;
import io.sluice.tck.write.WriterFixture;
import org.reactivestreams.Publisher;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.nio.ByteBuffer;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.fail;

/**
 * Writers under races, for every target and demand strategy: an upstream feeds the writer while
 * another thread cancels the write's stage, racing the upstream's own completion.
 *
 * <ul>
 *   <li>{@link #writeEndsCleanlyWhenCancelledWhileUpstreamEmits}: the upstream emits on its own
 *       threads. Every round the stage completes exactly once, with every byte written or as
 *       cancelled (W6); the target is closed exactly once (W6); a cancelled write cancels a live
 *       upstream (W6); the writer never calls {@code request}/{@code cancel} concurrently or with
 *       {@code n <= 0} (§2.7, §3.9).</li>
 *   <li>{@link #requestAndCancelAreNeverCalledConcurrently_2_7}: the upstream emits synchronously
 *       inside {@code request}, so the writer's {@code onNext} runs nested in its own request call,
 *       while the stage is cancelled from another thread: still no concurrent request/cancel
 *       (W1, §2.7).</li>
 * </ul>
 */
public class WriteRaceTest {

    private static final int ROUNDS = 300;
    private static final int ITEMS = 40;
    private static final int ITEM_BYTES = 64;
    private static final long TIMEOUT_MILLIS = 5000;

    private ExecutorService racers;
    private ExecutorService upstreamThreads;

    @BeforeClass
    public void start() {
        racers = Executors.newFixedThreadPool(1);
        upstreamThreads = Executors.newFixedThreadPool(2);
    }

    @AfterClass(alwaysRun = true)
    public void stop() throws InterruptedException {
        racers.shutdownNow();
        upstreamThreads.shutdownNow();
        assertTrue(racers.awaitTermination(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS), "racer thread did not end");
        assertTrue(
                upstreamThreads.awaitTermination(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS),
                "upstream threads did not end");
    }

    @DataProvider
    public Object[][] cases() {
        return WriterCase.rows();
    }

    @Test(dataProvider = "cases")
    public void writeEndsCleanlyWhenCancelledWhileUpstreamEmits(WriterCase writerCase) throws Exception {
        try (WriterFixture fixture = new WriterFixture(writerCase)) {
            for (int round = 0; round < ROUNDS; round++) {
                AsyncUpstream upstream = new AsyncUpstream(ITEMS, ITEM_BYTES, upstreamThreads);
                runRound(fixture, writerCase, round, upstream, upstream::subscription, upstream.endedLatch());
            }
        }
    }

    @Test(dataProvider = "cases")
    public void requestAndCancelAreNeverCalledConcurrently_2_7(WriterCase writerCase) throws Exception {
        try (WriterFixture fixture = new WriterFixture(writerCase)) {
            for (int round = 0; round < ROUNDS; round++) {
                SynchronousUpstream upstream = new SynchronousUpstream(ITEMS, ITEM_BYTES);
                runRound(fixture, writerCase, round, upstream, upstream::subscription, null);
            }
        }
    }

    /**
     * Subscribes a new writer to {@code upstream} (on this thread, as {@code Writes.start} does),
     * cancels its stage from the racer thread in three rounds out of four, after a random spin,
     * and checks the outcome.
     *
     * @param upstreamEnded opens when the upstream completed or was cancelled; null: not checked
     */
    private void runRound(
            WriterFixture fixture,
            WriterCase writerCase,
            int round,
            Publisher<ByteBuffer> upstream,
            Supplier<CheckedSubscription> subscription,
            CountDownLatch upstreamEnded)
            throws Exception {
        String where = writerCase + ", round " + round + ": ";
        Write writer = fixture.newWriter();
        CompletableFuture<Long> stage = writer.result();
        boolean cancels = round % 4 != 0;
        int spins = ThreadLocalRandom.current().nextInt(20_000);
        CountDownLatch go = new CountDownLatch(1);
        Future<?> canceller = racers.submit(() -> {
            go.await();
            for (int i = 0; i < spins; i++) {
                Thread.onSpinWait();
            }
            if (cancels) {
                stage.cancel(true);
            }
            return null;
        });
        go.countDown();
        upstream.subscribe(writer.subscriber());
        canceller.get(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);

        long written;
        try {
            written = stage.get(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError(where + "W6: the stage never completed", e);
        } catch (CancellationException e) {
            written = -1;
        } catch (ExecutionException e) {
            throw new AssertionError(where + "the write failed", e.getCause());
        }
        if (written >= 0) {
            assertEquals(written, (long) ITEMS * ITEM_BYTES, where + "stage reported a wrong byte count");
            assertEquals(fixture.targetBytes(writer), (long) ITEMS * ITEM_BYTES, where + "bytes lost");
        } else if (!cancels) {
            fail(where + "cancelled, but nobody cancelled it");
        }
        if (upstreamEnded != null) {
            assertTrue(
                    upstreamEnded.await(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS),
                    where + "W6: the write was cancelled but its live upstream was never cancelled");
        }
        fixture.endAllAndCheckClosed(); // W6: closed exactly once
        CheckedSubscription checked = subscription.get();
        if (!checked.violations().isEmpty()) {
            fail(where + checked.violations());
        }
    }
}
