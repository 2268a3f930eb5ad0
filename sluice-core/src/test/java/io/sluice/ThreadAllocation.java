package io.sluice;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;

/** The heap the calling thread has allocated, for tests that bound an operation's garbage. */
final class ThreadAllocation {

    private ThreadAllocation() {
    }

    /** Bytes this thread allocated so far, through {@code com.sun.management.ThreadMXBean} (reflectively: a module test). */
    static long allocatedBytes() throws ReflectiveOperationException {
        java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Method perThread = Class.forName("com.sun.management.ThreadMXBean")
                .getMethod("getThreadAllocatedBytes", long.class);
        return (long) perThread.invoke(threads, Thread.currentThread().getId());
    }
}
