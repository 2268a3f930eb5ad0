package io.sluice.server;

import org.eclipse.jetty.util.Callback;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@code ?delay=ms} of the non-blocking storages: the step runs later on one timer thread, so
 * no thread waits for the simulated storage. A step that throws fails the request's callback.
 */
final class DelayTimer implements AutoCloseable {

    private final ScheduledExecutorService timer =
            Executors.newSingleThreadScheduledExecutor(daemonThreads("sluice-server-delay-timer-"));

    /** Runs {@code step} now, on the caller's thread, or after {@code delayMillis} on the timer. */
    void after(long delayMillis, Callback callback, Runnable step) {
        Runnable guarded = () -> {
            try {
                step.run();
            } catch (RuntimeException e) {
                callback.failed(e);
            }
        };
        if (delayMillis <= 0) {
            guarded.run();
        } else {
            timer.schedule(guarded, delayMillis, TimeUnit.MILLISECONDS);
        }
    }

    /** Daemon threads named {@code prefix1}, {@code prefix2}, ...: they never keep the JVM alive. */
    static ThreadFactory daemonThreads(String prefix) {
        AtomicInteger next = new AtomicInteger(1);
        return task -> {
            Thread thread = new Thread(task, prefix + next.getAndIncrement());
            thread.setDaemon(true);
            return thread;
        };
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
