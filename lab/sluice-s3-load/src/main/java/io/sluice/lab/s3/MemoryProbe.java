package io.sluice.lab.s3;

import com.sun.management.GarbageCollectionNotificationInfo;
import io.netty.util.internal.PlatformDependent;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * A client JVM's memory while it records: every {@link #PERIOD_MILLIS} ms the heap in use (live and
 * not yet collected garbage alike) and the direct memory, and after every garbage collection the
 * heap that survived it (the live heap, as near as the JVM tells it without forcing a collection).
 * Direct memory is the JDK's {@code direct} buffer pool plus Netty's own count: Netty allocates its
 * pooled buffers without a cleaner when it may ({@code PlatformDependent.usedDirectMemory()}), and
 * the JDK's pool does not see those; each allocation is in exactly one of the two, so their sum at
 * one moment is the process's direct memory. Started and stopped by one thread; the sampler and
 * the JVM's notification thread only raise the peaks.
 *
 * <p>The heap after an ordinary collection overstates the live heap: a young collection leaves the
 * old generation as it is, garbage included (with G1, whatever died there since the last mixed
 * collection, which a busy JVM may not run for seconds). Where the live heap
 * itself is the question, a probe {@linkplain #start(long) started with checks} also forces a full
 * collection every so often and records the heap after it ({@link Peaks#checkedLiveHeapBytes}), at
 * the price of the pauses: a sample measured that way is not a speed figure. The heap after it is
 * the one its notification reports, at the end of the pause: read once the pause is over, the heap
 * in use already holds the allocation buffers every running thread took since.
 */
final class MemoryProbe implements AutoCloseable {

    /** How often the sampler reads the heap and direct memory. */
    static final long PERIOD_MILLIS = 5;

    /** The cause a collection that {@link System#gc()} forced reports. */
    private static final String FORCED_CAUSE = "System.gc()";

    /** When the first forced collection of a probe with checks comes. */
    static final long FIRST_CHECK_MILLIS = 20;

    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();
    private static final Set<String> HEAP_POOLS = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(pool -> pool.getType() == MemoryType.HEAP)
            .map(MemoryPoolMXBean::getName)
            .collect(Collectors.toSet());

    private final BufferPoolMXBean directPool = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
            .filter(pool -> pool.getName().equals("direct"))
            .findFirst()
            .orElseThrow();
    private final AtomicLong peakHeap = new AtomicLong(); // sampler -> reader
    private final AtomicLong peakLiveHeap = new AtomicLong(-1); // notification thread -> reader; -1: no collection
    private final AtomicLong peakDirect = new AtomicLong(); // sampler -> reader, JDK pool + Netty at one moment
    private final AtomicLong peakDirectJdk = new AtomicLong(); // sampler -> reader
    private final AtomicLong peakDirectNetty = new AtomicLong(); // sampler -> reader; -1 if Netty does not count
    private final NotificationListener afterGc = this::collected;
    private final AtomicLong peakCheckedLiveHeap = new AtomicLong(-1); // notification thread -> reader; -1: none
    private final AtomicLong checksForced = new AtomicLong(); // checker -> close
    private final AtomicLong checksRead = new AtomicLong(); // notification thread -> close
    private final Thread sampler = new Thread(this::sample, "memory-probe");
    private final long checkMillis; // 0: no forced collections
    private final Thread checker = new Thread(this::check, "memory-probe-check");
    private volatile boolean running = true;

    private MemoryProbe(long checkMillis) {
        this.checkMillis = checkMillis;
    }

    /**
     * The peaks seen between {@link #start} and {@link #close()}; {@code checkedLiveHeapBytes} is the
     * highest heap after a forced full collection, -1 without checks.
     */
    record Peaks(
            long heapBytes,
            long liveHeapBytes,
            long directBytes,
            long directJdkBytes,
            long directNettyBytes,
            long checkedLiveHeapBytes) {}

    /**
     * The heap in use after a full collection, at the end of its pause (as a check reads it): what
     * the JVM holds while it does nothing.
     */
    static long idleHeapBytes() {
        System.gc();
        com.sun.management.GcInfo last = null;
        for (var collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            com.sun.management.GcInfo info = ((com.sun.management.GarbageCollectorMXBean) collector).getLastGcInfo();
            if (info != null && (last == null || info.getEndTime() > last.getEndTime())) {
                last = info;
            }
        }
        if (last == null) {
            return MEMORY.getHeapMemoryUsage().getUsed(); // a collector that reports none
        }
        long after = 0;
        for (var pool : last.getMemoryUsageAfterGc().entrySet()) {
            if (HEAP_POOLS.contains(pool.getKey())) {
                after += pool.getValue().getUsed();
            }
        }
        return after;
    }

    /**
     * Starts sampling and listening to collections, and, if {@code checkMillis} is positive, forcing a
     * full collection every {@code checkMillis} ms to read the live heap after it.
     */
    static MemoryProbe start(long checkMillis) {
        MemoryProbe probe = new MemoryProbe(checkMillis);
        for (var collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            ((NotificationEmitter) collector).addNotificationListener(probe.afterGc, null, null);
        }
        probe.sampler.setDaemon(true);
        probe.sampler.start();
        if (checkMillis > 0) {
            probe.checker.setDaemon(true);
            probe.checker.start();
        }
        return probe;
    }

    Peaks peaks() {
        return new Peaks(
                peakHeap.get(),
                peakLiveHeap.get(),
                peakDirect.get(),
                peakDirectJdk.get(),
                peakDirectNetty.get(),
                peakCheckedLiveHeap.get());
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        sampler.join();
        if (checkMillis > 0) {
            checker.interrupt();
            checker.join();
            long deadline = System.nanoTime() + 1_000_000_000L; // notifications come on their own thread, soon
            while (checksRead.get() < checksForced.get() && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
        }
        for (var collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            try {
                ((NotificationEmitter) collector).removeNotificationListener(afterGc);
            } catch (javax.management.ListenerNotFoundException e) {
                // added in start(): cannot happen
            }
        }
        sampleOnce();
    }

    private void sample() {
        while (running) {
            sampleOnce();
            try {
                Thread.sleep(PERIOD_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void check() {
        long pause = FIRST_CHECK_MILLIS; // then checkMillis: a transfer shorter than the period still gets one
        while (running) {
            try {
                Thread.sleep(pause);
                pause = checkMillis;
            } catch (InterruptedException e) {
                return; // closed
            }
            System.gc(); // a full, stop-the-world collection: the harness never sets -XX:+ExplicitGCInvokesConcurrent
            checksForced.incrementAndGet(); // its heap is read from its notification (collected)
        }
    }

    private void sampleOnce() {
        peakHeap.accumulateAndGet(MEMORY.getHeapMemoryUsage().getUsed(), Math::max);
        long jdk = directPool.getMemoryUsed();
        long netty = PlatformDependent.usedDirectMemory(); // -1 when Netty leaves direct buffers to the JDK
        peakDirectJdk.accumulateAndGet(jdk, Math::max);
        peakDirectNetty.accumulateAndGet(netty, Math::max);
        peakDirect.accumulateAndGet(jdk + Math.max(0, netty), Math::max);
    }

    private void collected(Notification notification, Object handback) {
        if (!notification.getType().equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
            return;
        }
        GarbageCollectionNotificationInfo info =
                GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
        boolean forced = info.getGcCause().equals(FORCED_CAUSE);
        long after = 0;
        for (var pool : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
            if (HEAP_POOLS.contains(pool.getKey())) {
                MemoryUsage usage = pool.getValue();
                after += usage.getUsed();
            }
        }
        peakLiveHeap.accumulateAndGet(after, Math::max);
        if (forced) {
            peakCheckedLiveHeap.accumulateAndGet(after, Math::max);
            checksRead.incrementAndGet();
        }
    }
}
