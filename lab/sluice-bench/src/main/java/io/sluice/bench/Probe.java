package io.sluice.bench;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * Measures one invocation's cost in this JVM: process CPU time, bytes allocated by all threads,
 * peak heap (the heap pools' peak usage, reset at start: includes garbage not yet collected), peak
 * direct memory above the level at the start ({@code BufferPoolMXBean "direct"}, sampled every
 * millisecond; includes the JDK's per-thread temporary buffers for heap-buffer I/O; memory a
 * library allocates through {@code Unsafe} directly, such as Netty's no-cleaner buffers, is not
 * seen) and peak live threads.
 */
public final class Probe implements AutoCloseable {

    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private final List<MemoryPoolMXBean> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(pool -> pool.getType() == MemoryType.HEAP)
            .collect(Collectors.toList());
    private final BufferPoolMXBean direct = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
            .filter(pool -> pool.getName().equals("direct"))
            .findFirst()
            .orElseThrow();
    private final Method totalAllocated = totalAllocatedMethod();
    private final AtomicLong peakDirect = new AtomicLong();
    private final Thread sampler;
    private volatile boolean running = true;

    public Probe() {
        threads.setThreadAllocatedMemoryEnabled(true);
        sampler = new Thread(this::sample, "bench-probe");
        sampler.setDaemon(true);
        sampler.start();
    }

    /** JDK 21+: counts terminated threads too; JDK 17 sums the live threads. */
    private static Method totalAllocatedMethod() {
        try {
            return com.sun.management.ThreadMXBean.class.getMethod("getTotalThreadAllocatedBytes");
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    private void sample() {
        while (running) {
            peakDirect.accumulateAndGet(direct.getMemoryUsed(), Math::max);
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Resets the peaks and records the counters; call just before the timed part. */
    public Start start() {
        heapPools.forEach(MemoryPoolMXBean::resetPeakUsage);
        threads.resetPeakThreadCount();
        long directNow = direct.getMemoryUsed();
        peakDirect.set(directNow);
        return new Start(os.getProcessCpuTime(), allocated(), directNow);
    }

    /** The costs since {@code start}; call just after the timed part. */
    public Cost stop(Start start) {
        long cpu = os.getProcessCpuTime() - start.cpuNanos();
        long allocated = allocatedSince(start.allocated());
        long peakHeap = heapPools.stream()
                .mapToLong(pool -> pool.getPeakUsage().getUsed())
                .sum();
        long directPeak = Math.max(peakDirect.get(), direct.getMemoryUsed());
        return new Cost(
                cpu, allocated, peakHeap, Math.max(0, directPeak - start.directBytes()), threads.getPeakThreadCount());
    }

    private Map<Long, Long> allocated() {
        Map<Long, Long> byThread = new HashMap<>();
        if (totalAllocated != null) {
            try {
                byThread.put(-1L, (Long) totalAllocated.invoke(threads));
                return byThread;
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("getTotalThreadAllocatedBytes failed", e);
            }
        }
        long[] ids = threads.getAllThreadIds();
        long[] bytes = threads.getThreadAllocatedBytes(ids);
        for (int i = 0; i < ids.length; i++) {
            if (bytes[i] >= 0) {
                byThread.put(ids[i], bytes[i]);
            }
        }
        return byThread;
    }

    private long allocatedSince(Map<Long, Long> before) {
        return allocated().entrySet().stream()
                .mapToLong(entry -> entry.getValue() - before.getOrDefault(entry.getKey(), 0L))
                .sum();
    }

    @Override
    public void close() {
        running = false;
        sampler.interrupt();
    }

    public record Start(long cpuNanos, Map<Long, Long> allocated, long directBytes) {}

    /** One invocation's costs, or several invocations' sums and peaks. */
    public record Cost(long cpuNanos, long allocatedBytes, long peakHeapBytes, long peakDirectBytes, int peakThreads) {
        static final Cost NONE = new Cost(0, 0, 0, 0, 0);

        /** The sums of both costs and the higher of both peaks. */
        Cost and(Cost next) {
            return new Cost(
                    cpuNanos + next.cpuNanos,
                    allocatedBytes + next.allocatedBytes,
                    Math.max(peakHeapBytes, next.peakHeapBytes),
                    Math.max(peakDirectBytes, next.peakDirectBytes),
                    Math.max(peakThreads, next.peakThreads));
        }
    }
}
