package io.sluice.internal;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The library's own timer: one daemon thread {@code sluice-timer}, alive while something is
 * scheduled and for 10 s after, so that
 * no timeout or watch of sluice's runs on a thread it does not own (the JDK's shared
 * {@code CompletableFuture} delayer above all, which every {@code orTimeout} in the JVM shares).
 * Its tasks must not block: whatever may wait (an abort waiting for a system call in flight) is
 * handed to another executor by the task.
 */
public final class SluiceTimer {

    private SluiceTimer() {}

    /** Runs {@code task} on the timer thread after {@code delayNanos}; the future cancels it. */
    public static ScheduledFuture<?> schedule(Runnable task, long delayNanos) {
        return Holder.TIMER.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
    }

    /**
     * Runs {@code task}, which may wait (an abort waiting for one system call in flight), on a
     * daemon thread {@code sluice-timeout-N} of its own, started as needed and ended after 10 s
     * idle: timer tasks hand such work here so the timer thread itself never waits.
     */
    public static void runMayBlock(Runnable task) {
        MayBlock.POOL.execute(task);
    }

    private static final class MayBlock {
        static final ThreadPoolExecutor POOL = create();

        private static ThreadPoolExecutor create() {
            AtomicInteger next = new AtomicInteger(1);
            return new ThreadPoolExecutor(
                    0, Integer.MAX_VALUE, 10, TimeUnit.SECONDS, new SynchronousQueue<>(), task -> {
                        Thread thread = new Thread(task, "sluice-timeout-" + next.getAndIncrement());
                        thread.setDaemon(true);
                        return thread;
                    });
        }
    }

    private static final class Holder {
        static final ScheduledThreadPoolExecutor TIMER = create();

        private static ScheduledThreadPoolExecutor create() {
            ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, task -> {
                Thread thread = new Thread(task, "sluice-timer");
                thread.setDaemon(true);
                return thread;
            });
            timer.setRemoveOnCancelPolicy(true); // cancelled timeouts do not pile up in the queue
            timer.setKeepAliveTime(10, TimeUnit.SECONDS);
            timer.allowCoreThreadTimeOut(true); // no thread while nothing is scheduled
            return timer;
        }
    }
}
