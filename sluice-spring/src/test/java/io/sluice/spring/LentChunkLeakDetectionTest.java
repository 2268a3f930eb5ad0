package io.sluice.spring;

import io.netty.buffer.UnpooledByteBufAllocator;
import io.sluice.ChunkPool;
import io.sluice.ReadOptions;
import io.sluice.internal.LeakDetection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.core.io.buffer.NettyDataBufferFactory;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.sluice.spring.DataBufferFilesWriteTest.random;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code touch(hint)} on the buffers a read emits, Spring's wrapper and Netty's, reaches the leak
 * report of a chunk never released. Run by the {@code leak-detection} execution of Surefire, which
 * starts its JVM with {@code -Dsluice.leakDetection=true}; the default execution excludes it.
 */
class LentChunkLeakDetectionTest {

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

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"spring", "netty"})
    void aBufferTouchedAndNeverReleasedIsReportedWithItsHint(String kind) throws Exception {
        Path file = Files.write(dir.resolve("source"), random(4096, 11));
        DataBufferFactory factory = kind.equals("netty")
                ? new NettyDataBufferFactory(UnpooledByteBufAllocator.DEFAULT)
                : DefaultDataBufferFactory.sharedInstance;
        String hint = "decoded by the " + kind + " test";
        long read = DataBufferFiles.read(
                        file, factory, ReadOptions.defaults().withLentChunks(ChunkPool.create(1024, 4)))
                .doOnNext(buffer -> DataBufferUtils.touch(buffer, hint))
                .count() // releases nothing
                .block(Duration.ofSeconds(30));
        assertEquals(4, read);

        LeakDetection.Leak leak = awaitLeak(hint);
        String report = leak.describe();
        assertTrue(report.contains("last touched (hint: " + hint + ")"), report);
        assertTrue(
                frames(leak.lentAt()).anyMatch(frame -> frame.startsWith("io.sluice.internal.ChunkArena.lend")),
                report);
        assertTrue(
                frames(leak.lastTouchedAt())
                        .anyMatch(frame -> frame.startsWith(getClass().getName() + ".lambda")),
                "the touch names the test's consumer:\n" + report);
    }

    private LeakDetection.Leak awaitLeak(String hint) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            for (LeakDetection.Leak leak : reported) {
                if (leak.lastTouchedAt() != null
                        && leak.lastTouchedAt().getMessage().contains(hint)) {
                    return leak;
                }
            }
            System.gc();
            Thread.sleep(10);
            ChunkPool.giveBack(ChunkPool.lend(ByteBuffer.allocate(1), () -> {})); // a loan looks for collected ones
        }
        return fail("no leak reported with the hint '" + hint + "' in 30 s; reports: " + reported.size());
    }

    private static Stream<String> frames(Throwable site) {
        return Stream.of(site.getStackTrace()).map(frame -> frame.getClassName() + "." + frame.getMethodName());
    }
}
