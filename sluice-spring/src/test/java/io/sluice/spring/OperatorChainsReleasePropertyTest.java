package io.sluice.spring;

import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.NettyDataBuffer;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A write's source through the operators users put on a request body, ended every way a write ends
 * early: whatever those operators hold in their queues when the write is cancelled, fails or times
 * out is released, and every buffer exactly once. The buffers are Netty's pooled ones, as Reactor
 * Netty hands them to WebFlux, with the leak detector at PARANOID; each is retained once by the
 * test, so afterwards exactly one reference must be left on each (none: released twice; two:
 * leaked), as in {@link NettyBuffersWriteTest}.
 *
 * <p>A buffer is the write's once the chain has emitted it to the write or handed it to the discard
 * hook, which the test watches from below the chain ({@code doOnDiscard} adds its watcher after
 * the write's own hook). Some Reactor operators lose an element when a cancel races their drain
 * ({@code publishOn} cancels a scheduled drain and leaves its queue, reactor-core issue 4396;
 * {@code buffer} reads its list unguarded against a concurrent {@code onNext}): such a buffer is
 * neither, no subscriber can reach it, and the test releases it and counts it apart rather than
 * failing on it. Every other buffer must hold exactly the test's reference.
 */
class OperatorChainsReleasePropertyTest {

    /** Longest a correct run takes to give everything back after the write ended. */
    private static final long SETTLE_NANOS = TimeUnit.SECONDS.toNanos(5);

    private static ResourceLeakDetector.Level previousLevel; // the container's thread only
    /** Buffers no subscriber could reach (see above), over the whole run: reported, not failed on. */
    private static final AtomicLong LOST_BY_REACTOR = new AtomicLong();

    private final NettyDataBufferFactory factory = new NettyDataBufferFactory(PooledByteBufAllocator.DEFAULT);

    @BeforeContainer
    static void paranoid() {
        previousLevel = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    }

    @AfterContainer
    static void restore() {
        ResourceLeakDetector.setLevel(previousLevel);
        if (LOST_BY_REACTOR.get() > 0) {
            System.out.println(
                    LOST_BY_REACTOR.get() + " buffers lost inside Reactor's operators, never emitted nor discarded");
        }
    }

    /** An operator a body passes through on its way to the write. */
    enum Step {
        PUBLISH_ON(body -> body.publishOn(Schedulers.parallel(), 16)),
        PUBLISH_ON_ONE_AHEAD(body -> body.publishOn(Schedulers.parallel(), 1)),
        DELAY_ELEMENTS(body -> body.delayElements(Duration.ofMillis(1))),
        BUFFER(body -> body.buffer(4).flatMapIterable(list -> list)),
        BUFFER_ACROSS_THREADS(
                body -> body.buffer(3).publishOn(Schedulers.parallel(), 4).concatMapIterable(list -> list)),
        LIMIT_RATE(body -> body.limitRate(8)),
        CONCAT_MAP(body -> body.concatMap(Mono::just)),
        CONCAT_MAP_DELAYED(body -> body.concatMap(buffer -> Mono.just(buffer).delayElement(Duration.ofMillis(1)))),
        FLAT_MAP(body -> body.flatMap(Mono::just, 4, 8)),
        FLAT_MAP_DELAYED(body -> body.flatMap(buffer -> Mono.just(buffer).delayElement(Duration.ofMillis(1)), 4, 8)),
        ON_BACKPRESSURE_BUFFER(Flux::onBackpressureBuffer),
        TIMEOUT(body -> body.timeout(Duration.ofMillis(40)));

        final UnaryOperator<Flux<DataBuffer>> apply;

        Step(UnaryOperator<Flux<DataBuffer>> apply) {
            this.apply = apply;
        }
    }

    /** How the write ends before its source does. */
    enum End {
        /** The write's subscriber cancels once the source has made the given number of buffers. */
        CANCEL,
        /** The source fails after the given number of buffers. */
        SOURCE_ERROR,
        /** {@code timeout} on the write: a completion from outside, which cancels it. */
        WRITE_TIMEOUT,
        /** The target cannot be opened (a missing directory). */
        WRITE_FAILS
    }

    @Property(tries = 60, shrinking = ShrinkingMode.OFF)
    void everyBufferIsReleasedOnceHoweverTheWriteEnds(
            @ForAll @Size(min = 1, max = 3) List<Step> steps,
            @ForAll End end,
            @ForAll @IntRange(min = 1, max = 80) int items,
            @ForAll @IntRange(min = 1, max = 16_384) int itemBytes,
            @ForAll @IntRange(min = 0, max = 30) int endAfter,
            @ForAll @IntRange(min = 0, max = 3_000) int pauseMicros)
            throws Exception {
        List<NettyDataBuffer> sent = Collections.synchronizedList(new ArrayList<>());
        Set<Object> reached = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
        Flux<DataBuffer> made = Flux.range(0, end == End.SOURCE_ERROR ? Math.min(endAfter, items) : items)
                .map(index -> made(itemBytes, index, sent));
        Flux<DataBuffer> body = end == End.SOURCE_ERROR
                ? made.concatWith(Flux.error(new IOException("upload aborted")))
                : made.concatWith(Flux.never());
        for (Step step : steps) {
            body = step.apply.apply(body);
        }
        body = body.doOnNext(reached::add).doOnDiscard(Object.class, dropped -> watch(dropped, reached));
        Path dir = Files.createTempDirectory("sluice-spring-chains");
        try {
            Path target = end == End.WRITE_FAILS ? dir.resolve("missing").resolve("target") : dir.resolve("target");
            Mono<Long> write = DataBufferFiles.write(body, target);
            if (end == End.WRITE_TIMEOUT) {
                write = write.timeout(Duration.ofNanos(TimeUnit.MICROSECONDS.toNanos(1_000 + pauseMicros)));
            }
            Disposable subscribed = write.subscribe(written -> {}, failed -> {});
            if (end == End.CANCEL) {
                awaitMade(sent, Math.min(endAfter, items), subscribed);
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(pauseMicros));
                subscribed.dispose();
            }
            awaitEnded(subscribed);
            assertEachReachedHeldOnlyByTheTest(sent, reached);
        } finally {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            giveBackTheTests(sent); // and those made after the check, by a late request

            try (var entries = Files.list(dir)) {
                for (Path entry : entries.toList()) {
                    Files.delete(entry);
                }
            }
            Files.delete(dir);
        }
    }

    /** A pooled buffer of {@code bytes} bytes, retained once for the test and recorded. */
    private DataBuffer made(int bytes, int index, List<NettyDataBuffer> sent) {
        NettyDataBuffer buffer = factory.allocateBuffer(bytes);
        for (int i = 0; i < bytes; i++) {
            buffer.write((byte) index);
        }
        buffer.retain();
        sent.add(buffer);
        return buffer;
    }

    private static void awaitMade(List<NettyDataBuffer> sent, int count, Disposable write) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (sent.size() < count && !write.isDisposed() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(100_000);
        }
    }

    private static void awaitEnded(Disposable write) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!write.isDisposed() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(100_000);
        }
        assertTrue(write.isDisposed(), "the write ended");
    }

    /** Releases every reference left on {@code buffers}: the test's, and a leaked buffer's others. */
    private static void giveBackTheTests(List<NettyDataBuffer> buffers) {
        for (NettyDataBuffer buffer : List.copyOf(buffers)) {
            int left = buffer.getNativeBuffer().refCnt();
            if (left > 0) {
                buffer.getNativeBuffer().release(left);
            }
        }
    }

    /** The test's watch on the discard hook, after the write's own: what the chain dropped. */
    private static void watch(Object dropped, Set<Object> reached) {
        if (dropped instanceof Collection<?> several) {
            several.forEach(one -> watch(one, reached)); // buffer()'s lists, dropped whole
        } else {
            reached.add(dropped);
        }
    }

    /**
     * Waits until no buffer the write reached holds more than the test's reference and none was
     * made for a while (the writer gives buffers back on its own thread; an operator's drain runs
     * on another), then checks that each holds exactly the test's; gives back the test's reference,
     * and every reference of a buffer Reactor lost on its way (see the class comment).
     */
    private static void assertEachReachedHeldOnlyByTheTest(List<NettyDataBuffer> sent, Set<Object> reached) {
        long deadline = System.nanoTime() + SETTLE_NANOS;
        int seen = -1;
        while (System.nanoTime() < deadline) {
            List<NettyDataBuffer> now = List.copyOf(sent);
            if (now.size() == seen
                    && now.stream()
                            .filter(reached::contains)
                            .allMatch(buffer -> buffer.getNativeBuffer().refCnt() <= 1)) {
                break;
            }
            seen = now.size();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        List<NettyDataBuffer> all = List.copyOf(sent);
        List<NettyDataBuffer> ours = all.stream().filter(reached::contains).toList();
        List<Integer> references =
                ours.stream().map(buffer -> buffer.getNativeBuffer().refCnt()).toList();
        long lostByReactor = all.size() - ours.size();
        giveBackTheTests(all);
        if (lostByReactor > 0) {
            LOST_BY_REACTOR.addAndGet(lostByReactor);
        }
        long leaked = references.stream().filter(count -> count > 1).count();
        long releasedTwice = references.stream().filter(count -> count == 0).count();
        assertEquals(
                Collections.nCopies(ours.size(), 1),
                references,
                leaked + " of " + ours.size() + " buffers the write reached left unreleased, " + releasedTwice
                        + " released twice");
    }
}
