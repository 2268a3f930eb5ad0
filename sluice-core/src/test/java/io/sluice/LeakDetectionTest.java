package io.sluice;

import io.sluice.internal.LeakDetection;
import io.sluice.testing.Bytes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Flux;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Leak reports with {@code -Dsluice.leakDetection=true}: run by the {@code leak-detection}
 * execution of Surefire, which sets it (detection is fixed when the JVM first lends); the default
 * execution, whose JVM lends without it, excludes this class.
 */
class LeakDetectionTest {

    @TempDir
    Path dir;

    private final List<LeakDetection.Leak> reported = new CopyOnWriteArrayList<>();
    private Runnable removeListener;

    @BeforeEach
    void listen() {
        assertTrue(
                LeakDetection.enabled(),
                "needs -D" + LeakDetection.PROPERTY + "=true from JVM start: run it in the leak-detection execution");
        removeListener = LeakDetection.addListener(reported::add);
    }

    @AfterEach
    void stopListening() {
        if (removeListener != null) {
            removeListener.run();
        }
    }

    @Test
    void aBufferLentAndNeverGivenBackIsReportedWithWhereItWasLent() throws Exception {
        lendAndForget();

        LeakDetection.Leak leak =
                awaitLeak(candidate -> stackNames(candidate.lentAt(), "LeakDetectionTest.lendAndForget"));
        assertTrue(leak.describe().contains("LeakDetectionTest.lendAndForget"), leak.describe());
        assertNull(leak.lastTouchedAt(), "never touched");
        assertTrue(leak.describe().contains("never touched"), leak.describe());
    }

    @Test
    void aLentReadChunkDroppedByItsConsumerIsReportedWithTheLastTouch() throws Exception {
        Path file = Bytes.file(dir, "source", Bytes.random(4096, 7));
        ChunkPool pool = ChunkPool.create(1024, 4);
        Flux.from(ReactiveFile.of(file).read(ReadOptions.defaults().withLentChunks(pool)))
                .doOnNext(chunk -> ChunkPool.touch(chunk, "the test's parser"))
                .count() // drops every chunk, gives none back
                .block(java.time.Duration.ofSeconds(30));

        LeakDetection.Leak leak = awaitLeak(candidate -> candidate.lastTouchedAt() != null
                && candidate.lastTouchedAt().getMessage().contains("the test's parser"));
        assertTrue(stackNames(leak.lentAt(), "ChunkArena.lend"), "lent by the read's arena:\n" + leak.describe());
        assertTrue(
                stackNames(leak.lastTouchedAt(), "LeakDetectionTest.lambda"),
                "touched by the consumer:\n" + leak.describe());
        assertTrue(leak.describe().contains("last touched (hint: the test's parser)"), leak.describe());
    }

    @Test
    void aChunkPassedOnOnlyAsASliceIsReportedAsNeverGivenBack() throws Exception {
        Path file = Bytes.file(dir, "source", Bytes.random(4096, 8));
        Path target = dir.resolve("target");
        ChunkPool pool = ChunkPool.create(1024, 4);
        Flux<ByteBuffer> slices = Flux.from(
                        ReactiveFile.of(file).read(ReadOptions.defaults().withLentChunks(pool)))
                .map(chunk -> ChunkPool.touch(chunk, "sliced for the writer").slice());
        assertEquals(
                4096,
                ReactiveFile.of(target).write(slices).toCompletableFuture().get(30, TimeUnit.SECONDS));

        LeakDetection.Leak leak = awaitLeak(candidate -> candidate.lastTouchedAt() != null
                && candidate.lastTouchedAt().getMessage().contains("sliced for the writer"));
        assertTrue(stackNames(leak.lentAt(), "ChunkArena.lend"), leak.describe());
    }

    @Test
    void aChunkGivenBackIsNeverReported() throws Exception {
        for (int i = 0; i < 100; i++) {
            lendTouchAndGiveBack();
        }
        lendAndForget(); // the marker: once it is reported, the collector has run

        awaitLeak(candidate -> stackNames(candidate.lentAt(), "LeakDetectionTest.lendAndForget"));
        assertEquals(
                List.of(),
                reported.stream()
                        .filter(candidate -> stackNames(candidate.lentAt(), "LeakDetectionTest.lendTouchAndGiveBack"))
                        .toList(),
                "chunks given back were reported");
    }

    @Test
    void touchingABufferThatIsNotLentDoesNothing() {
        ByteBuffer owned = ByteBuffer.allocate(8);
        assertEquals(owned, ChunkPool.touch(owned, "owned"));
        ByteBuffer view = ChunkPool.lend(ByteBuffer.allocate(8), () -> {});
        ChunkPool.giveBack(view);
        assertEquals(view, ChunkPool.touch(view, "given back"));
    }

    private static void lendAndForget() {
        ChunkPool.lend(ByteBuffer.allocate(64), () -> {});
    }

    private static void lendTouchAndGiveBack() {
        ByteBuffer view = ChunkPool.lend(ByteBuffer.allocate(64), () -> {});
        ChunkPool.touch(view, "about to give back");
        ChunkPool.giveBack(view);
    }

    /** Collects until a report matches: each round a loan, which is when the table looks for collected ones. */
    private LeakDetection.Leak awaitLeak(Predicate<LeakDetection.Leak> wanted) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            for (LeakDetection.Leak leak : reported) {
                if (wanted.test(leak)) {
                    return leak;
                }
            }
            System.gc();
            Thread.sleep(10);
            ChunkPool.giveBack(ChunkPool.lend(ByteBuffer.allocate(1), () -> {}));
        }
        return fail("no matching leak reported in 30 s; reports: " + reported.size());
    }

    private static boolean stackNames(Throwable site, String frame) {
        for (StackTraceElement element : site.getStackTrace()) {
            String name = element.getClassName()
                            .substring(element.getClassName().lastIndexOf('.') + 1) + "." + element.getMethodName();
            if (name.startsWith(frame)) {
                return true;
            }
        }
        return false;
    }
}
