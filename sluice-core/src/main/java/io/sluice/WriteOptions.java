package io.sluice;

import io.sluice.demand.Demand;
import io.sluice.demand.DemandStrategy;

import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * How a writer writes: open mode, demand strategy, byte cap, durability, executor, listener; the
 * {@code with...} methods return modified copies.
 *
 * <pre>{@code
 * WriteOptions.append().withDemand(Demand.fixed(16, 4)).withSync()
 * }</pre>
 *
 * <p><b>Threading:</b> immutable and thread-safe; one instance may serve any number of writes (each
 * write gets its own demand controller from the strategy).
 *
 * <p><b>Backpressure:</b> the {@link #demand() demand strategy} decides how many items to request
 * and when; {@link #maxQueuedBytes()} caps the received, unwritten bytes: demand is forwarded only
 * while the queued bytes plus the outstanding items, each counted at the largest item seen (or
 * declared), stay within the cap, and one item is always requested when nothing is queued or
 * outstanding. Its bound: {@code max(C, M)} for cap {@code C}
 * and the write's largest item {@code M} while no item outgrows those before it. Demand cannot be
 * taken back, so over a whole write, with the first non-empty item {@code F} and the strategy's
 * largest window {@code W} (items queued plus outstanding), a write holds at most
 * <ul>
 *   <li>{@code max(M, C + min(W, C / F) * (M - F))} bytes for any sequence of sizes: each item
 *       larger than those before it can find up to {@code min(W, C / F)} items outstanding that
 *       were requested for smaller ones ({@link WriteListener#onLargerItem} reports each);</li>
 *   <li>{@code max(C, D)} bytes with {@link #withMaxItemBytes(long) withMaxItemBytes(D)}.</li>
 * </ul>
 * {@link io.sluice.demand.Demand#unbounded()} is the one strategy the cap does not limit.
 *
 * <p><b>Timeouts:</b> a write has none of its own: it waits for its upstream as long as the upstream
 * takes, and cannot tell a slow publisher from one that will never signal. A publisher that never
 * calls {@code onSubscribe} (or subscribes and then goes silent) leaves the write's stage pending
 * for ever; only the caller ends it, by completing the stage from outside, for example
 * <pre>{@code
 * ReactiveFile.of(path).write(publisher, options).toCompletableFuture().orTimeout(30, TimeUnit.SECONDS)
 * }</pre>
 * which aborts the write as {@code cancel} does: the stage fails with a {@code TimeoutException}.
 * A write opens its target only after {@code onSubscribe}, so if that never came, no file was
 * created or opened (not even an atomic write's temporary file); a channel or stream given to
 * {@link ByteChannels} or {@link ByteStreams} is closed as their Cancel paragraphs say. A
 * subscription that arrives after the abort is cancelled at once, with nothing requested.
 *
 * <p><b>Resources:</b> an executor set with {@link #withExecutor} is used, never shut down, by the library.
 *
 * <p><b>Errors:</b> every method validates its argument and throws {@link NullPointerException} or
 * {@link IllegalArgumentException} naming it.
 */
public final class WriteOptions {

    /** The default byte cap on queued data per write: 1 MiB. */
    public static final long DEFAULT_MAX_QUEUED_BYTES = 1024 * 1024;

    private static final WriteOptions DEFAULTS = new WriteOptions(
            WriteMode.TRUNCATE, Demand.adaptive(), DEFAULT_MAX_QUEUED_BYTES, 0, false, null, null, false);

    private final WriteMode mode;
    private final DemandStrategy demand;
    private final long maxQueuedBytes;
    private final long maxItemBytes; // 0: not declared
    private final boolean sync;
    private final Executor executor; // null: the library's default for the target
    private final WriteListener listener; // null: none
    private final boolean atomicReplace;

    private WriteOptions(
            WriteMode mode,
            DemandStrategy demand,
            long maxQueuedBytes,
            long maxItemBytes,
            boolean sync,
            Executor executor,
            WriteListener listener,
            boolean atomicReplace) {
        this.mode = mode;
        this.demand = demand;
        this.maxQueuedBytes = maxQueuedBytes;
        this.maxItemBytes = maxItemBytes;
        this.sync = sync;
        this.executor = executor;
        this.listener = listener;
        this.atomicReplace = atomicReplace;
    }

    /**
     * The shared defaults: {@link WriteMode#TRUNCATE}, {@link Demand#adaptive()}, a
     * {@value #DEFAULT_MAX_QUEUED_BYTES} bytes cap; no sync, atomic replace, executor or listener.
     *
     * @return the default options
     */
    public static WriteOptions defaults() {
        return DEFAULTS;
    }

    /**
     * The defaults with {@link WriteMode#APPEND}.
     *
     * @return the default options, but appending to an existing file
     */
    public static WriteOptions append() {
        return DEFAULTS.withMode(WriteMode.APPEND);
    }

    /**
     * The defaults with {@link WriteMode#CREATE_NEW}.
     *
     * @return the default options, but failing the write if the file already exists
     */
    public static WriteOptions createNew() {
        return DEFAULTS.withMode(WriteMode.CREATE_NEW);
    }

    /**
     * A copy opening its target in {@code mode}. Applies to file writes and copies; channel and
     * stream writes ignore it.
     *
     * @param mode how the target file is opened: truncated, appended to, or created new
     * @return a copy with this mode
     * @throws NullPointerException if {@code mode} is {@code null}
     */
    public WriteOptions withMode(WriteMode mode) {
        return new WriteOptions(
                Objects.requireNonNull(mode, "mode"),
                demand,
                maxQueuedBytes,
                maxItemBytes,
                sync,
                executor,
                listener,
                atomicReplace);
    }

    /**
     * A copy using {@code demand} (see {@link Demand}).
     *
     * @param demand decides how many items each write requests from upstream and when
     * @return a copy with this demand strategy
     * @throws NullPointerException if {@code demand} is {@code null}
     */
    public WriteOptions withDemand(DemandStrategy demand) {
        return new WriteOptions(
                mode,
                Objects.requireNonNull(demand, "demand"),
                maxQueuedBytes,
                maxItemBytes,
                sync,
                executor,
                listener,
                atomicReplace);
    }

    /**
     * A copy with byte cap {@code bytes}; the bytes a write then holds are in the class Javadoc.
     *
     * @param bytes the cap on received, unwritten bytes per write, at least 1
     * @return a copy with this byte cap
     * @throws IllegalArgumentException if {@code bytes} is 0 or negative
     */
    public WriteOptions withMaxQueuedBytes(long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("maxQueuedBytes must be positive, was " + bytes);
        }
        return new WriteOptions(mode, demand, bytes, maxItemBytes, sync, executor, listener, atomicReplace);
    }

    /**
     * A copy that declares the largest item the upstream will send, making the byte cap the hard
     * bound the class Javadoc states: demand is counted at {@code bytes} per item from the first
     * request on. A larger item fails the write with an {@link IllegalArgumentException} naming
     * both sizes. The price: with items much smaller than {@code bytes}, fewer are requested at
     * once ({@code maxQueuedBytes / bytes}).
     *
     * @param bytes the largest item the upstream sends, at least 1
     * @return a copy with this declared largest item
     * @throws IllegalArgumentException if {@code bytes} is 0 or negative
     */
    public WriteOptions withMaxItemBytes(long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("maxItemBytes must be positive, was " + bytes);
        }
        return new WriteOptions(mode, demand, maxQueuedBytes, bytes, sync, executor, listener, atomicReplace);
    }

    /**
     * The largest item declared with {@link #withMaxItemBytes(long)}.
     *
     * @return that size in bytes, or 0 if none was declared (the writer then goes by the largest
     *     item seen)
     */
    public long maxItemBytes() {
        return maxItemBytes;
    }

    /**
     * A copy that forces data and metadata to the device before the stage completes
     * ({@code FileChannel.force(true)}, then for a {@link ReactiveFile} write or copy the file's
     * directory, so that a file it created still exists after a crash; an output stream is flushed).
     *
     * @return a copy with sync on
     */
    public WriteOptions withSync() {
        return new WriteOptions(mode, demand, maxQueuedBytes, maxItemBytes, true, executor, listener, atomicReplace);
    }

    /**
     * A copy running its writes on {@code executor} instead of the library's default.
     *
     * @param executor runs each write's opening, writing and closing; a rejected task fails the
     *     write with a {@code RejectedExecutionException}
     * @return a copy with this executor
     * @throws NullPointerException if {@code executor} is {@code null}
     */
    public WriteOptions withExecutor(Executor executor) {
        return new WriteOptions(
                mode,
                demand,
                maxQueuedBytes,
                maxItemBytes,
                sync,
                Objects.requireNonNull(executor, "executor"),
                listener,
                atomicReplace);
    }

    /**
     * A copy reporting each demand decision to {@code listener} (see {@link WriteListener}, which
     * also names the JDK Flight Recorder events every write records, listener or not).
     *
     * @param listener called with a {@link WriteSnapshot} after each drain pass of every write made
     *     with these options, on that write's drain; an exception from it fails the write
     * @return a copy with this listener (replacing any earlier one)
     * @throws NullPointerException if {@code listener} is {@code null}
     */
    public WriteOptions withListener(WriteListener listener) {
        return new WriteOptions(
                mode,
                demand,
                maxQueuedBytes,
                maxItemBytes,
                sync,
                executor,
                Objects.requireNonNull(listener, "listener"),
                atomicReplace);
    }

    /**
     * A copy whose file writes never leave the target half-written: the bytes go to a temporary
     * file in the target's directory (an unpredictable name, never following a link planted at
     * it), which is forced and renamed over the target atomically, and the directory is forced,
     * before the stage completes. On failure or cancellation the temporary file is deleted and the
     * target keeps its old content; a process killed mid-write leaves the old content and, at
     * worst, a temporary file that {@link ReactiveFile#removeStaleTemporaries(java.nio.file.Path)}
     * removes. The rename is the point of no return (see {@link ReactiveFile}'s Cancel): once it
     * has begun the stage reports its outcome, so a cancelled stage means an untouched target.
     *
     * <p>Applies to {@link ReactiveFile#write} and {@link ReactiveFile#copyTo} with
     * {@link WriteMode#TRUNCATE} (replace) or {@link WriteMode#CREATE_NEW} (create, failing if the
     * target appeared meanwhile); {@link WriteMode#APPEND} is refused with an
     * {@link IllegalArgumentException} when the write starts. Implies {@link #withSync()}. A
     * replaced file's POSIX permissions are kept; a new file gets those a plain create gives (0666
     * less the umask); the temporary file is owner-only until its rename. A symbolic link at the
     * target is replaced by the file, not followed. Channel and stream writes have no path and
     * ignore this option.
     *
     * @return a copy with atomic replace and sync on
     */
    public WriteOptions withAtomicReplace() {
        return new WriteOptions(mode, demand, maxQueuedBytes, maxItemBytes, true, executor, listener, true);
    }

    /**
     * Whether {@link #withAtomicReplace()} was chosen.
     *
     * @return {@code true} if file writes go through a temporary file renamed over the target
     */
    public boolean atomicReplace() {
        return atomicReplace;
    }

    /**
     * How the target is opened.
     *
     * @return the open mode; {@link WriteMode#TRUNCATE} unless changed
     */
    public WriteMode mode() {
        return mode;
    }

    /**
     * The demand strategy.
     *
     * @return the strategy each write takes its controller from; {@link Demand#adaptive()} unless
     *     changed
     */
    public DemandStrategy demand() {
        return demand;
    }

    /**
     * The byte cap on received, unwritten data.
     *
     * @return the cap in bytes, at least 1; {@value #DEFAULT_MAX_QUEUED_BYTES} unless changed
     */
    public long maxQueuedBytes() {
        return maxQueuedBytes;
    }

    /**
     * Whether data and metadata are forced before the stage completes.
     *
     * @return {@code true} after {@link #withSync()} or {@link #withAtomicReplace()}
     */
    public boolean sync() {
        return sync;
    }

    /**
     * The executor set with {@link #withExecutor}.
     *
     * @return that executor, or {@code null} if the target's default applies (each entry point
     *     names its own)
     */
    public Executor executor() {
        return executor;
    }

    /**
     * The listener set with {@link #withListener}.
     *
     * @return that listener, or {@code null} if none was set
     */
    public WriteListener listener() {
        return listener;
    }

    @Override
    public String toString() {
        return "WriteOptions[mode=" + mode + ", demand=" + demand + ", maxQueuedBytes=" + maxQueuedBytes
                + (maxItemBytes > 0 ? ", maxItemBytes=" + maxItemBytes : "") + ", sync=" + sync
                + (atomicReplace ? ", atomicReplace" : "") + "]";
    }
}
