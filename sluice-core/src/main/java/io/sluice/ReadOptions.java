package io.sluice;

import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * How a publisher reads: chunk size, byte range and executor. Immutable; the {@code with...}
 * methods return modified copies.
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
 * <p><b>Resources:</b> holds none. An executor set with {@link #withExecutor} is used, never shut
 * down, by the library.
 *
 * <p><b>Errors:</b> every method validates its argument and throws {@link NullPointerException} or
 * {@link IllegalArgumentException} naming it.
 */
public final class ReadOptions {

    /** The default chunk size: 64 KiB. */
    public static final int DEFAULT_CHUNK_SIZE_BYTES = 64 * 1024;

    private static final ReadOptions DEFAULTS =
            new ReadOptions(DEFAULT_CHUNK_SIZE_BYTES, 0, Long.MAX_VALUE, null);

    private final int chunkSizeBytes;
    private final long offset;
    private final long length;               // Long.MAX_VALUE: to the end
    private final Executor executor;         // null: the library's default for the source

    private ReadOptions(int chunkSizeBytes, long offset, long length, Executor executor) {
        this.chunkSizeBytes = chunkSizeBytes;
        this.offset = offset;
        this.length = length;
        this.executor = executor;
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
     * it is read, so a peer waiting for an answer is not kept waiting for a full chunk.
     *
     * @param bytes the largest chunk in bytes, at least 1; each subscriber reads into a buffer of
     *     this size per item (a chunk of less than half of it is copied out into a buffer of its
     *     own size)
     * @return a copy with this chunk size
     * @throws IllegalArgumentException if {@code bytes} is 0 or negative
     */
    public ReadOptions withChunkSize(int bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("chunkSize must be positive, was " + bytes);
        }
        return new ReadOptions(bytes, offset, length, executor);
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
        return new ReadOptions(chunkSizeBytes, offset, length, executor);
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
        return new ReadOptions(chunkSizeBytes, offset, length,
                Objects.requireNonNull(executor, "executor"));
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

    @Override
    public String toString() {
        return "ReadOptions[chunkSize=" + chunkSizeBytes + ", offset=" + offset
                + ", length=" + (length == Long.MAX_VALUE ? "all" : Long.toString(length)) + "]";
    }
}
