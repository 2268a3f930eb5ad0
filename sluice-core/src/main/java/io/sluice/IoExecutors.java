package io.sluice;

import io.sluice.internal.CompensatingPool;

import java.lang.reflect.Method;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;

/**
 * The library's executors.
 *
 * <ul>
 *   <li>{@link #files()}: file reads, writes and copies. Daemon threads {@code sluice-io-N}, at
 *       most {@code -Dsluice.io.threads} (default: twice the processors, at least 4). Tasks queue
 *       in FIFO order; every operation yields its thread after a bounded amount of work whenever
 *       a task is queued, so one long write cannot starve the others.</li>
 *   <li>{@link #blocking()}: {@code InputStream}/{@code OutputStream} and non-file channel work,
 *       which may block for as long as the peer wants, and the end of a sync file write on the
 *       file pool (its {@code fsync}, which a busy device can stretch to seconds). Daemon threads {@code sluice-blocking-N},
 *       at most {@code -Dsluice.blocking.threads} (default 64). Kept apart so a stalled stream
 *       never holds a file thread.</li>
 *   <li>{@link #newFilePool(int)}: a file pool of its own, for a caller that sizes and shuts it
 *       down itself.</li>
 *   <li>{@link #newVirtualThreadExecutor()}: a virtual thread per task on JDK 21+.</li>
 * </ul>
 * Threads of both pools end after 60 s idle; every entry point also accepts a user executor.
 *
 * <p><b>Stuck calls:</b> a call that may never return (opening or examining a file on a hung
 * network mount, an open held by a file lease) keeps its thread until it returns: the JDK cannot
 * abandon it. When such a call on a pool thread has run for 250 ms, the pool starts one more thread
 * in its place (up to 256 more per pool), and stops when the call returns, so the pool's size in
 * threads free to work holds and other operations go on. A cancelled operation does not wait for
 * such a call; what it opens is closed as soon as it returns. A {@code read}, {@code write} or
 * {@code fsync} in flight on a hung mount is not abandoned either: the file's close waits for it,
 * and so does a {@code cancel} that closes it.
 *
 * <p><b>Threading:</b> the methods may be called from any thread; each shared pool is created on
 * its first use and lives as long as the JVM.
 *
 * <p><b>Backpressure:</b> the pools' task queues are unbounded, but each operation keeps at most one
 * task queued or running at a time (its drain), so the queues hold at most one task per live
 * operation.
 *
 * <p><b>Resources:</b> the shared pools need no shutdown: their threads are daemons and end when
 * idle. An executor from {@link #newVirtualThreadExecutor()} belongs to the caller, who shuts it
 * down.
 *
 * <p><b>Errors:</b> a system property that is not a positive integer makes each use of its pool
 * throw an {@link IllegalArgumentException} naming the property and the value, until it is fixed;
 * {@link #newVirtualThreadExecutor()} throws {@link UnsupportedOperationException} before JDK 21.
 */
public final class IoExecutors {

    /** System property: the file pool's size. */
    public static final String FILE_THREADS_PROPERTY = "sluice.io.threads";
    /** System property: the blocking pool's size. */
    public static final String BLOCKING_THREADS_PROPERTY = "sluice.blocking.threads";

    private IoExecutors() {}

    private static volatile ExecutorService filePool; // created on first use
    private static volatile ExecutorService blockingPool; // created on first use

    /**
     * The shared file-IO executor.
     *
     * @return the pool of daemon threads {@code sluice-io-N}, the same instance on every call;
     *     created on the first call
     * @throws IllegalArgumentException if {@code -Dsluice.io.threads} is not a positive integer
     */
    public static Executor files() {
        ExecutorService pool = filePool;
        if (pool == null) {
            synchronized (IoExecutors.class) {
                pool = filePool;
                if (pool == null) {
                    pool = pool(
                            "sluice-io-",
                            sizeFromProperty(
                                    FILE_THREADS_PROPERTY,
                                    Math.max(4, 2 * Runtime.getRuntime().availableProcessors())));
                    filePool = pool;
                }
            }
        }
        return pool;
    }

    /**
     * The shared executor for blocking stream and socket work.
     *
     * @return the pool of daemon threads {@code sluice-blocking-N}, the same instance on every
     *     call; created on the first call
     * @throws IllegalArgumentException if {@code -Dsluice.blocking.threads} is not a positive integer
     */
    public static Executor blocking() {
        ExecutorService pool = blockingPool;
        if (pool == null) {
            synchronized (IoExecutors.class) {
                pool = blockingPool;
                if (pool == null) {
                    pool = pool("sluice-blocking-", sizeFromProperty(BLOCKING_THREADS_PROPERTY, 64));
                    blockingPool = pool;
                }
            }
        }
        return pool;
    }

    /**
     * A new file-IO executor of {@code threads} threads, of the same kind as {@link #files()}: for
     * an application that sizes its file pool in its own configuration (a Spring Boot property)
     * rather than with {@code -Dsluice.io.threads}, and owns the pool's lifetime. It is this kind,
     * not a plain {@code ThreadPoolExecutor}, because it keeps the shared pool's behaviour for
     * stuck calls (see Stuck calls above): an open that hangs on a dead mount does not take one of
     * its {@code threads} away from the other operations. Pass it with
     * {@link WriteOptions#withExecutor} and {@link ReadOptions#withExecutor}; the caller shuts it
     * down.
     *
     * @param threads the pool's size in threads free to work, at least 1; daemon threads named
     *     {@code sluice-files-N}, ending after 60 s idle, with an unbounded FIFO queue
     * @return a new executor, owned by the caller
     * @throws IllegalArgumentException if {@code threads} is below 1
     */
    public static ExecutorService newFilePool(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be positive, was " + threads);
        }
        return pool("sluice-files-", threads);
    }

    /**
     * Whether this JVM offers virtual threads (JDK 21+).
     *
     * @return {@code true} if {@code Executors.newVirtualThreadPerTaskExecutor()} exists, so that
     *     {@link #newVirtualThreadExecutor()} can create an executor
     */
    public static boolean virtualThreadsAvailable() {
        return VirtualThreads.FACTORY != null;
    }

    /**
     * A new executor that starts a virtual thread per task; shut it down when done.
     *
     * @return a new {@code Executors.newVirtualThreadPerTaskExecutor()}, owned by the caller
     * @throws UnsupportedOperationException before JDK 21
     */
    public static ExecutorService newVirtualThreadExecutor() {
        if (VirtualThreads.FACTORY == null) {
            throw new UnsupportedOperationException(
                    "virtual threads need JDK 21 or newer; this is " + Runtime.version());
        }
        try {
            return (ExecutorService) VirtualThreads.FACTORY.invoke(null);
        } catch (ReflectiveOperationException e) {
            throw new UnsupportedOperationException("virtual threads are not available: " + e, e);
        }
    }

    static int sizeFromProperty(String property, int fallback) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        int size;
        try {
            size = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-D" + property + " must be a positive integer, was '" + value + "'", e);
        }
        if (size < 1) {
            throw new IllegalArgumentException("-D" + property + " must be a positive integer, was " + size);
        }
        return size;
    }

    private static ExecutorService pool(String prefix, int threads) {
        return CompensatingPool.create(prefix, threads);
    }

    private static final class VirtualThreads {
        static final Method FACTORY = find();

        private static Method find() {
            try {
                return java.util.concurrent.Executors.class.getMethod("newVirtualThreadPerTaskExecutor");
            } catch (NoSuchMethodException e) {
                return null;
            }
        }
    }
}
