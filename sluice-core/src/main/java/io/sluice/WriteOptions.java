package io.sluice;

import io.sluice.demand.Demand;
import io.sluice.demand.DemandStrategy;

import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * How a writer writes: open mode, demand strategy, byte cap, durability, executor, listener.
 * Immutable; the {@code with...} methods return modified copies.
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
 * while the bytes held plus the items outstanding, each as large as the largest item seen so far,
 * fit under it. Items no larger than those before them therefore never exceed the cap; no writer can
 * bound an item larger than any it has seen, so one such item may pass it once (at most
 * {@code max(cap, largest item)} are held; see docs/ARCHITECTURE.md, W4).
 *
 * <p><b>Resources:</b> holds none. An executor set with {@link #withExecutor} is used, never shut
 * down, by the library; {@link #withSync()} forces data to the device before a write completes.
 *
 * <p><b>Errors:</b> every method validates its argument and throws {@link NullPointerException} or
 * {@link IllegalArgumentException} naming it.
 */
public final class WriteOptions {

    /** The default byte cap on queued data per write: 1 MiB. */
    public static final long DEFAULT_MAX_QUEUED_BYTES = 1024 * 1024;

    private static final WriteOptions DEFAULTS = new WriteOptions(
            WriteMode.TRUNCATE, Demand.adaptive(), DEFAULT_MAX_QUEUED_BYTES, false, null, null, false);

    private final WriteMode mode;
    private final DemandStrategy demand;
    private final long maxQueuedBytes;
    private final boolean sync;
    private final Executor executor;         // null: the library's default for the target
    private final WriteListener listener;    // null: none
    private final boolean atomicReplace;

    private WriteOptions(WriteMode mode, DemandStrategy demand, long maxQueuedBytes, boolean sync,
                         Executor executor, WriteListener listener, boolean atomicReplace) {
        this.mode = mode;
        this.demand = demand;
        this.maxQueuedBytes = maxQueuedBytes;
        this.sync = sync;
        this.executor = executor;
        this.listener = listener;
        this.atomicReplace = atomicReplace;
    }

    /**
     * Create or truncate, adaptive demand, 1 MiB byte cap, no force, the default executor.
     *
     * @return the shared default options: {@link WriteMode#TRUNCATE}, {@link Demand#adaptive()},
     *     {@value #DEFAULT_MAX_QUEUED_BYTES} bytes cap, no sync, no atomic replace, no executor, no
     *     listener
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
        return new WriteOptions(Objects.requireNonNull(mode, "mode"), demand, maxQueuedBytes, sync,
                executor, listener, atomicReplace);
    }

    /**
     * A copy using {@code demand} (see {@link Demand}).
     *
     * @param demand decides how many items each write requests from upstream and when; each write
     *     gets its own controller from it
     * @return a copy with this demand strategy
     * @throws NullPointerException if {@code demand} is {@code null}
     */
    public WriteOptions withDemand(DemandStrategy demand) {
        return new WriteOptions(mode, Objects.requireNonNull(demand, "demand"), maxQueuedBytes, sync,
                executor, listener, atomicReplace);
    }

    /**
     * A copy whose writer holds at most {@code bytes} of received, unwritten data (assuming items
     * no larger than the largest seen so far; a single larger item is still accepted).
     *
     * @param bytes the cap on received, unwritten bytes per write, at least 1; it limits the
     *     demand of every strategy except {@link Demand#unbounded()}
     * @return a copy with this byte cap
     * @throws IllegalArgumentException if {@code bytes} is 0 or negative
     */
    public WriteOptions withMaxQueuedBytes(long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("maxQueuedBytes must be positive, was " + bytes);
        }
        return new WriteOptions(mode, demand, bytes, sync, executor, listener, atomicReplace);
    }

    /**
     * A copy that forces data and metadata to the device before the stage completes
     * ({@code FileChannel.force(true)} for a file write or copy; an output stream is flushed).
     *
     * @return a copy with sync on
     */
    public WriteOptions withSync() {
        return new WriteOptions(mode, demand, maxQueuedBytes, true, executor, listener, atomicReplace);
    }

    /**
     * A copy running its writes on {@code executor} instead of the library's default.
     *
     * @param executor runs each write's opening, writing and closing; the library never shuts it
     *     down. A rejected task fails the write with a {@code RejectedExecutionException}.
     * @return a copy with this executor
     * @throws NullPointerException if {@code executor} is {@code null}
     */
    public WriteOptions withExecutor(Executor executor) {
        return new WriteOptions(mode, demand, maxQueuedBytes, sync,
                Objects.requireNonNull(executor, "executor"), listener, atomicReplace);
    }

    /**
     * A copy reporting each demand decision to {@code listener} (see {@link WriteListener}). A
     * summary of every write, listener or not, goes to JDK Flight Recorder as the
     * {@code io.sluice.Write} event (see {@link WriteListener} for its fields and how to see it).
     *
     * @param listener called with a {@link WriteSnapshot} after each drain pass of every write made
     *     with these options, on that write's drain; an exception from it fails the write
     * @return a copy with this listener (replacing any earlier one)
     * @throws NullPointerException if {@code listener} is {@code null}
     */
    public WriteOptions withListener(WriteListener listener) {
        return new WriteOptions(mode, demand, maxQueuedBytes, sync, executor,
                Objects.requireNonNull(listener, "listener"), atomicReplace);
    }

    /**
     * A copy whose file writes never leave the target half-written: the bytes go to a temporary
     * file in the target's directory (unpredictable name {@code .sluice-<32 hex>.tmp}, owner-only
     * permissions, never following a link planted at that name), which is forced and then renamed
     * over the target atomically, and the directory is forced, before the stage completes. On
     * failure or cancellation the temporary file is deleted and the target keeps its old content; a
     * process killed mid-write leaves the old content and, at worst, a temporary file that
     * {@link ReactiveFile#removeStaleTemporaries(java.nio.file.Path)} removes. The rename is the
     * write's point of no return: once it has begun, cancelling the stage returns {@code false}
     * and the stage reports the rename's outcome, so a cancelled stage always means an untouched
     * target.
     *
     * <p>Applies to {@link ReactiveFile#write} and {@link ReactiveFile#copyTo} (which then copies
     * through the heap), with {@link WriteMode#TRUNCATE} (replace) or {@link WriteMode#CREATE_NEW}
     * (create, failing if the target appeared meanwhile); {@link WriteMode#APPEND} is refused with
     * {@link IllegalArgumentException} when the write starts. Implies {@link #withSync()}. A
     * replaced file's POSIX permissions are kept; a new file gets those a plain create gives (0666
     * less the umask); the temporary file is owner-only until its rename. A symbolic link
     * at the target is replaced by the file, not followed. Channel and stream writes have no path
     * and ignore this option.
     *
     * @return a copy with atomic replace and sync on
     */
    public WriteOptions withAtomicReplace() {
        return new WriteOptions(mode, demand, maxQueuedBytes, true, executor, listener, true);
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
     * @return that executor, or {@code null} if the target's default applies
     *     ({@link IoExecutors#files()} for files and file channels, {@link IoExecutors#blocking()}
     *     otherwise)
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
        return "WriteOptions[mode=" + mode + ", demand=" + demand + ", maxQueuedBytes="
                + maxQueuedBytes + ", sync=" + sync + (atomicReplace ? ", atomicReplace" : "") + "]";
    }
}
