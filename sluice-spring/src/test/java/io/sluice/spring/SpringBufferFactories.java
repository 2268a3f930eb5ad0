package io.sluice.spring;

import io.netty.buffer.PoolArenaMetric;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty5.buffer.BufferAllocator;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.core.io.buffer.NettyDataBuffer;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import org.springframework.core.io.buffer.PooledDataBuffer;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Spring's buffer factories, chosen as Spring's own buffer tests choose them
 * ({@code AbstractDataBufferAllocatingTests}): Netty 4 unpooled and pooled, each heap and direct;
 * Netty 5 unpooled and pooled, each heap and direct; {@link DefaultDataBufferFactory} heap and
 * direct. And how to ask each whether a buffer of its went back.
 *
 * <p>The allocators are this class's own, never shared with other tests, so a pooled one's count of
 * live allocations is this suite's alone. The pooled Netty 4 allocators keep no thread caches, so
 * a released buffer counts as released at once; they live as long as the JVM, as do Netty 5's.
 */
final class SpringBufferFactories {

    private static final UnpooledByteBufAllocator NETTY4_UNPOOLED_DIRECT = new UnpooledByteBufAllocator(true);
    private static final UnpooledByteBufAllocator NETTY4_UNPOOLED_HEAP = new UnpooledByteBufAllocator(false);
    private static final PooledByteBufAllocator NETTY4_POOLED_DIRECT = pooledWithoutCaches(true);
    private static final PooledByteBufAllocator NETTY4_POOLED_HEAP = pooledWithoutCaches(false);

    private SpringBufferFactories() {}

    /** A test run once per factory of {@link #all()}, the factory its one argument. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.METHOD)
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.sluice.spring.SpringBufferFactories#all")
    @interface EachFactory {}

    /** Every factory, named as a test's display name shows it. */
    @SuppressWarnings("removal") // Netty5DataBufferFactory: deprecated in Spring 6.2, still one of its factories
    static Stream<Arguments> all() {
        return Stream.of(
                named("Netty 4 unpooled direct", new NettyDataBufferFactory(NETTY4_UNPOOLED_DIRECT)),
                named("Netty 4 unpooled heap", new NettyDataBufferFactory(NETTY4_UNPOOLED_HEAP)),
                named("Netty 4 pooled direct", new NettyDataBufferFactory(NETTY4_POOLED_DIRECT)),
                named("Netty 4 pooled heap", new NettyDataBufferFactory(NETTY4_POOLED_HEAP)),
                named(
                        "Netty 5 unpooled heap",
                        new org.springframework.core.io.buffer.Netty5DataBufferFactory(
                                Netty5Allocators.ON_HEAP_UNPOOLED)),
                named(
                        "Netty 5 unpooled direct",
                        new org.springframework.core.io.buffer.Netty5DataBufferFactory(
                                Netty5Allocators.OFF_HEAP_UNPOOLED)),
                named(
                        "Netty 5 pooled heap",
                        new org.springframework.core.io.buffer.Netty5DataBufferFactory(
                                Netty5Allocators.ON_HEAP_POOLED)),
                named(
                        "Netty 5 pooled direct",
                        new org.springframework.core.io.buffer.Netty5DataBufferFactory(
                                Netty5Allocators.OFF_HEAP_POOLED)),
                named("Default direct", new DefaultDataBufferFactory(true)),
                named("Default heap", new DefaultDataBufferFactory(false)));
    }

    /** The factory of {@link #all()} named {@code name}. */
    static DataBufferFactory named(String name) {
        return all().map(arguments -> (Named<?>) arguments.get()[0])
                .filter(named -> named.getName().equals(name))
                .map(named -> (DataBufferFactory) named.getPayload())
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no factory named " + name));
    }

    /**
     * Whether {@code buffer}'s memory went back to its factory: no reference left (Netty 4, and any
     * other pooled buffer), or closed (Netty 5). A {@code DefaultDataBuffer} is garbage-collected
     * heap or direct memory with no release of its own: always {@code true}.
     */
    @SuppressWarnings("removal")
    static boolean freed(DataBuffer buffer) {
        if (buffer instanceof NettyDataBuffer netty) {
            return netty.getNativeBuffer().refCnt() == 0;
        }
        if (buffer instanceof org.springframework.core.io.buffer.Netty5DataBuffer netty5) {
            return !netty5.getNativeBuffer().isAccessible();
        }
        if (buffer instanceof PooledDataBuffer pooled) {
            return !pooled.isAllocated();
        }
        return true;
    }

    /**
     * Takes a reference of the test's own on a Netty 4 buffer, so that once whatever it is sent to
     * has released it, exactly one is left ({@link #releasedBesidesTheTestsHold}). Other buffers have
     * no reference count to take: nothing happens.
     */
    static void holdForTheTest(DataBuffer buffer) {
        if (buffer instanceof NettyDataBuffer netty) {
            netty.retain();
        }
    }

    /**
     * Whether {@code buffer}, sent after {@link #holdForTheTest}, was released as its receiver
     * must: a Netty 4 buffer exactly once (only the test's reference left; none would be a double
     * release), any other freed; a {@code DefaultDataBuffer} has no release to observe.
     */
    static boolean releasedBesidesTheTestsHold(DataBuffer buffer) {
        if (buffer instanceof NettyDataBuffer netty) {
            return netty.getNativeBuffer().refCnt() == 1;
        }
        return freed(buffer);
    }

    /** Gives back the reference {@link #holdForTheTest} took, if it took one. */
    static void releaseTheTestsHold(DataBuffer buffer) {
        if (buffer instanceof NettyDataBuffer netty) {
            netty.release();
        }
    }

    /**
     * Waits up to 5 s until a pooled Netty 4 allocator behind {@code factory} has no live allocation
     * (an operator may release on another thread just after the test saw its end), then asserts it.
     * Other factories keep no such count.
     */
    static void assertNoLiveAllocations(DataBufferFactory factory) throws InterruptedException {
        if (!(factory instanceof NettyDataBufferFactory netty)
                || !(netty.getByteBufAllocator() instanceof PooledByteBufAllocator pooled)) {
            return;
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (liveAllocations(pooled) != 0 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertEquals(0, liveAllocations(pooled), "buffers of " + factory + " still allocated");
    }

    private static long liveAllocations(PooledByteBufAllocator allocator) {
        return live(allocator.metric().directArenas()) + live(allocator.metric().heapArenas());
    }

    private static long live(List<PoolArenaMetric> arenas) {
        return arenas.stream().mapToLong(PoolArenaMetric::numActiveAllocations).sum();
    }

    private static Arguments named(String name, DataBufferFactory factory) {
        return Arguments.of(Named.of(name, factory));
    }

    /** One arena each, small pages, no thread caches: a release is counted the moment it happens. */
    private static PooledByteBufAllocator pooledWithoutCaches(boolean preferDirect) {
        return new PooledByteBufAllocator(preferDirect, 1, 1, 4096, 4, 0, 0, true);
    }

    /** Netty 5's allocators, made when the first Netty 5 factory is. */
    private static final class Netty5Allocators {
        static final BufferAllocator ON_HEAP_UNPOOLED = BufferAllocator.onHeapUnpooled();
        static final BufferAllocator OFF_HEAP_UNPOOLED = BufferAllocator.offHeapUnpooled();
        static final BufferAllocator ON_HEAP_POOLED = BufferAllocator.onHeapPooled();
        static final BufferAllocator OFF_HEAP_POOLED = BufferAllocator.offHeapPooled();
    }
}
