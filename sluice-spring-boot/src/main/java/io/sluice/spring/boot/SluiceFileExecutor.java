package io.sluice.spring.boot;

import io.sluice.IoExecutors;
import org.springframework.beans.factory.DisposableBean;

import java.util.concurrent.ExecutorService;

/**
 * The application's own file executor ({@link IoExecutors#newFilePool(int)}), created when
 * {@code sluice.executors.files.threads} is set and shut down with the application context.
 *
 * <p>A holder rather than an {@code Executor} bean: Spring Boot's task execution
 * auto-configuration backs off when any {@code Executor} bean exists, and the application's
 * {@code @Async} work must not end up on sluice's file threads.
 *
 * <p><b>Resources:</b> {@link #destroy()} shuts the executor down: queued and running transfers
 * finish, new ones are refused.
 */
public final class SluiceFileExecutor implements DisposableBean {

    private final ExecutorService executor;

    /**
     * A new file executor.
     *
     * @param threads its size in threads, at least 1
     * @throws IllegalArgumentException if {@code threads} is below 1
     */
    public SluiceFileExecutor(int threads) {
        this.executor = IoExecutors.newFilePool(threads);
    }

    /**
     * The executor.
     *
     * @return the executor the default read and write options run on
     */
    public ExecutorService executor() {
        return executor;
    }

    /** Shuts the executor down. */
    @Override
    public void destroy() {
        executor.shutdown();
    }
}
