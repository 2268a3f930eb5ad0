package io.sluice.server;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;

/**
 * The heap this JVM has allocated so far, in bytes, for {@code /metrics}: a counter read before
 * and after a load window gives what the server allocated within it (the harness's
 * {@code heap alloc MiB/GiB}). Thread-safe: it holds no state of its own, any thread may call it.
 */
final class AllocatedHeap {

    // null on a JVM without HotSpot's extension of ThreadMXBean
    private static final com.sun.management.ThreadMXBean THREADS = hotSpotThreads();
    // getTotalThreadAllocatedBytes (JDK 21+, so looked up by name: compiled for 17), or null
    private static final Method TOTAL = totalMethod();

    private AllocatedHeap() {}

    /**
     * Bytes allocated so far, or -1 when this JVM does not measure allocation. On JDK 21+ this is
     * {@code getTotalThreadAllocatedBytes()}: every thread, terminated ones included (a virtual
     * thread's allocations count on its carrier). On JDK 17 it is the sum of
     * {@code getThreadAllocatedBytes} over the live threads: what terminated threads allocated is
     * missed, so the figure drops when a thread ends.
     */
    static long totalBytes() {
        if (THREADS == null
                || !THREADS.isThreadAllocatedMemorySupported()
                || !THREADS.isThreadAllocatedMemoryEnabled()) {
            return -1;
        }
        if (TOTAL != null) {
            try {
                return (Long) TOTAL.invoke(THREADS);
            } catch (ReflectiveOperationException e) {
                return -1;
            }
        }
        long sum = 0;
        for (long bytes : THREADS.getThreadAllocatedBytes(THREADS.getAllThreadIds())) {
            if (bytes > 0) { // -1: the thread ended between the two calls
                sum += bytes;
            }
        }
        return sum;
    }

    private static com.sun.management.ThreadMXBean hotSpotThreads() {
        java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        return threads instanceof com.sun.management.ThreadMXBean hotSpot ? hotSpot : null;
    }

    private static Method totalMethod() {
        try {
            return com.sun.management.ThreadMXBean.class.getMethod("getTotalThreadAllocatedBytes");
        } catch (NoSuchMethodException e) {
            return null;
        }
    }
}
