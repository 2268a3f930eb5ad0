package io.sluice;

import io.sluice.internal.read.ChunkSupply;

import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * How a publisher reads: chunk size, byte range, executor, and whether its chunks are owned or
 * lent. Immutable; the {@code with...} methods return modified copies.
 *
 * <pre>{@code
 * ReadOptions.range(offset, length).withChunkSize(16 * 1024)
 * }</pre>
 *
 * <p><b>Threading:</b> immutable and thread-safe; one instance may serve any number of reads.
 *
 * <p><b>Backpressure:</b> each item a subscriber requests is one chunk of at most
 * {@link #chunkSizeBytes()}, so a subscriber's demand times the chunk size bounds the bytes in
 * flight; a range bounds the total.
 *
 * <p><b>Resources:</b> by default each chunk is a new heap buffer the subscriber owns and may keep.
 * With {@link #withLentChunks()} each chunk is a direct buffer lent from a {@link ChunkPool} and
 * read into without a copy; the subscriber gives it back ({@link ChunkPool#giveBack}), so a read
 * allocates nothing per chunk. An executor set with {@link #withExecutor} is used, never shut
 * down, by the library.
 *
 * <p><b>Errors:</b> every method validates its argument and throws {@link NullPointerException} or
 * {@link IllegalArgumentException} naming it.
 */
public final class ReadOptions {

    /** The default chunk size: 64 KiB. */
    public static final int DEFAULT_CHUNK_SIZE_BYTES = 64 * 1024;

    private static final ReadOptions DEFAULTS =
            new ReadOptions(DEFAULT_CHUNK_SIZE_BYTES, 0, Long.MAX_VALUE, null, false, null, false);

    private final int chunkSizeBytes;
    private final long offset;
    private final long length; // Long.MAX_VALUE: to the end
    private final Executor executor; // null: the library's default for the source
    private final boolean lent; // chunks lent from a pool, not owned
    private final ChunkPool pool; // null: the shared pool for the chunk size (when lent)
    private final boolean exact; // a source shorter than the range fails the read
    private ChunkSupply supply; // any thread: made by the first read; a race makes equal ones

    private ReadOptions(
            int chunkSizeBytes,
            long offset,
            long length,
            Executor executor,
            boolean lent,
            ChunkPool pool,
            boolean exact) {
        this.chunkSizeBytes = chunkSizeBytes;
        this.offset = offset;
        this.length = length;
        this.executor = executor;
        this.lent = lent;
        this.pool = pool;
        this.exact = exact;
    }

    /**
     * 64 KiB chunks, the whole source, the default executor.
     *
     * @return the shared default options (chunk size {@value #DEFAULT_CHUNK_SIZE_BYTES} bytes,
     *     offset 0, no length limit, no executor)
     */
    public static ReadOptions defaults() {
        return DEFAULTS;
    }

    /**
     * The defaults, limited to {@code length} bytes from {@code offset}.
     *
     * @param offset the first byte to read, counted from the start of a file or from the current
     *     position of a channel or stream; at least 0
     * @param length the most bytes to read; at least 0, {@code Long.MAX_VALUE} for "to the end"
     * @return the default options with this range
     * @throws IllegalArgumentException if {@code offset} or {@code length} is negative
     */
    public static ReadOptions range(long offset, long length) {
        return DEFAULTS.withRange(offset, length);
    }

    /**
     * A copy emitting chunks of at most {@code bytes}. A file's chunks are full but the last; a
     * channel's or stream's chunk holds what one read returned (never nothing), emitted as soon as
     * it is read, so a peer waiting for an answer is not kept waiting for a full chunk. With
     * {@link #withLentChunks()}, a chunk size larger than its shared pool's whole budget (at most
     * 64 MiB, see {@link ChunkPool#shared}) is not pooled: each chunk is lent as a heap buffer of
     * its own, given back like any lent chunk and garbage afterwards, so no chunk size makes a shared
     * pool keep more than its budget.
     *
     * @param bytes the largest chunk in bytes, at least 1; each subscriber reads into a buffer of
     *     this size per item (a chunk of less than half of it is copied out into a buffer of its
     *     own size)
     * @return a copy with this chunk size
     * @throws IllegalArgumentException if {@code bytes} is 0 or negative, or larger than the chunks
     *     of a pool set with {@link #withLentChunks(ChunkPool)}
     */
    public ReadOptions withChunkSize(int bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("chunkSize must be positive, was " + bytes);
        }
        if (pool != null && bytes > pool.chunkSizeBytes()) {
            throw new IllegalArgumentException(
                    "chunkSize " + bytes + " is larger than the chunks of " + pool + "; use a pool of larger chunks");
        }
        return new ReadOptions(bytes, offset, length, executor, lent, pool, exact);
    }

    /**
     * A copy whose chunks are lent from the {@linkplain ChunkPool#sharedFor(int) shared pool} for the
     * chunk size: direct
     * buffers, read into without a copy, which the subscriber gives back with
     * {@link ChunkPool#giveBack} once done with each (sluice's writers do so themselves). A chunk
     * never given back is garbage like any buffer; see {@link ChunkPool} for the rule.
     *
     * @return a copy with lent chunks from the shared pool
     */
    public ReadOptions withLentChunks() {
        return new ReadOptions(chunkSizeBytes, offset, length, executor, true, null, exact);
    }

    /**
     * A copy whose chunks are lent from {@code pool}, with the pool's chunk size.
     *
     * @param pool the pool to borrow from
     * @return a copy with lent chunks of {@code pool.chunkSizeBytes()}
     * @throws NullPointerException if {@code pool} is {@code null}
     */
    public ReadOptions withLentChunks(ChunkPool pool) {
        Objects.requireNonNull(pool, "pool");
        return new ReadOptions(pool.chunkSizeBytes(), offset, length, executor, true, pool, exact);
    }

    /**
     * A copy whose chunks are new heap buffers the subscriber owns (the default).
     *
     * @return a copy with owned chunks
     */
    public ReadOptions withOwnedChunks() {
        return new ReadOptions(chunkSizeBytes, offset, length, executor, false, null, exact);
    }

    /**
     * A copy reading at most {@code length} bytes starting at {@code offset}. For channels and
     * streams that cannot seek, {@code offset} bytes are skipped first.
     *
     * @param offset the first byte to read, counted from the start of a file or from the current
     *     position of a channel or stream; at least 0. A file range starting at or beyond its end is
     *     empty.
     * @param length the most bytes to read; at least 0, {@code Long.MAX_VALUE} for "to the end"
     * @return a copy with this range
     * @throws IllegalArgumentException if {@code offset} or {@code length} is negative
     */
    public ReadOptions withRange(long offset, long length) {
        if (offset < 0) {
            throw new IllegalArgumentException("offset must not be negative, was " + offset);
        }
        if (length < 0) {
            throw new IllegalArgumentException("length must not be negative, was " + length);
        }
        return new ReadOptions(chunkSizeBytes, offset, length, executor, lent, pool, exact);
    }

    /**
     * A copy that reads its range in full or fails: where the source has fewer than
     * {@link #length()} bytes from {@link #offset()} (a file shorter when it is opened, or one that
     * shrinks while it is read; a channel or stream that ends first), the subscriber gets
     * {@code onError} with an {@link java.io.EOFException} naming the shortfall, never a short,
     * silently completed read. For a response whose {@code Content-Length} was taken from the
     * file's size: a file that changed meanwhile fails the response at once. A file that grew is
     * read up to the range only. Without a range ({@code length} {@code Long.MAX_VALUE}) it changes
     * nothing.
     *
     * @return a copy that reads the range exactly
     */
    public ReadOptions withExactRange() {
        return new ReadOptions(chunkSizeBytes, offset, length, executor, lent, pool, true);
    }

    /**
     * A copy running its reads on {@code executor} instead of the library's default.
     *
     * @param executor runs each read's work (and a cold publisher's opener); the library never
     *     shuts it down. A rejected task fails the read with {@code onError}.
     * @return a copy with this executor
     * @throws NullPointerException if {@code executor} is {@code null}
     */
    public ReadOptions withExecutor(Executor executor) {
        return new ReadOptions(
                chunkSizeBytes, offset, length, Objects.requireNonNull(executor, "executor"), lent, pool, exact);
    }

    /**
     * The largest chunk emitted, in bytes: a file's chunks are this size but the last; a
     * channel's or stream's are what each read returned, up to this size.
     *
     * @return the chunk size in bytes, at least 1
     */
    public int chunkSizeBytes() {
        return chunkSizeBytes;
    }

    /**
     * The first byte to read.
     *
     * @return the offset in bytes, at least 0
     */
    public long offset() {
        return offset;
    }

    /**
     * The most bytes to read.
     *
     * @return the length limit in bytes, at least 0; {@code Long.MAX_VALUE} for "to the end"
     */
    public long length() {
        return length;
    }

    /**
     * The executor set with {@link #withExecutor}.
     *
     * @return that executor, or {@code null} if the source's default applies
     *     ({@link IoExecutors#files()} for files and file channels, {@link IoExecutors#blocking()}
     *     otherwise)
     */
    public Executor executor() {
        return executor;
    }

    /**
     * Whether chunks are lent ({@link #withLentChunks()}) rather than owned.
     *
     * @return true for lent chunks
     */
    public boolean lentChunks() {
        return lent;
    }

    /**
     * Whether the range must be read in full.
     *
     * @return {@code true} after {@link #withExactRange()}
     */
    public boolean exactRange() {
        return exact;
    }

    /**
     * The pool lent chunks come from.
     *
     * @return the pool set with {@link #withLentChunks(ChunkPool)}, the shared pool for the chunk
     *     size with {@link #withLentChunks()}, or {@code null} for owned chunks
     */
    public ChunkPool chunkPool() {
        if (!lent) {
            return null;
        }
        return pool != null ? pool : ChunkPool.sharedFor(chunkSizeBytes);
    }

    /** Where reads with these options take their chunks: one supply for all of them (it is immutable). */
    ChunkSupply chunkSupply() {
        ChunkSupply made = supply;
        if (made == null) {
            made = lent ? ChunkSupply.lent(chunkPool().arena(), chunkSizeBytes) : ChunkSupply.owned(chunkSizeBytes);
            supply = made; // immutable, with final fields: safe to publish through a race
        }
        return made;
    }

    @Override
    public String toString() {
        return "ReadOptions[chunkSize=" + chunkSizeBytes + ", offset=" + offset
                + ", length=" + (length == Long.MAX_VALUE ? "all" : Long.toString(length))
                + (exact ? ", exact" : "") + (lent ? ", lent from " + chunkPool() : "") + "]";
    }
}
