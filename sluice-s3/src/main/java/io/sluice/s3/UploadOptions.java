package io.sluice.s3;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * How {@link ReactiveObject} uploads: the first part size and how far it may grow, how many parts
 * may be in flight at once, and the body's length when it is known. Immutable; the {@code with*}
 * methods return new options.
 *
 * <p><b>Part sizes:</b> with an unknown length, the part size starts at {@link #partSizeBytes()} and
 * doubles every 500 parts, up to {@link #maxPartSizeBytes()} (by default
 * {@value #MAX_PART_SIZE_BYTES} bytes): parts 1-500 have the first size, 501-1,000 twice it, and so
 * on. So {@value #MAX_PARTS} parts hold any body up to S3's 5 TiB object limit from any first size
 * (from 5 MiB: about 6.5 TiB), and the size grows only with the bytes already sent: the current part
 * size is at most {@code partSizeBytes + uploaded / 500}. A maximum equal to the first size fixes it
 * (an unknown-length body that outgrows {@value #MAX_PARTS} parts then fails and is aborted). With a
 * declared {@linkplain #withContentLength length} one size is chosen up front instead: the first
 * size, raised if the body would not fit in {@value #MAX_PARTS} parts of it.
 *
 * <p><b>Resources:</b> a stream's upload holds at most {@code (partsInFlight + 1) * currentPartSize}
 * bytes of part buffers (heap, in 256 KiB blocks taken as bytes arrive, so never more than the bytes
 * received), plus the one item of its publisher whose bytes it is copying; the HTTP client's own
 * send buffers per request in flight come on top. Each of its parts carries the CRC32C of its bytes,
 * so the SDK sends it as it is, with no checksum trailer of its own (no second copy). With the
 * defaults (8 MiB, 2 in flight) that is 24 MiB for the first 500 parts (about 3.9 GiB); after 100 GiB
 * the parts are 128 MiB (384 MiB held), and from part 3,501 (about 496 GiB) they are 1 GiB (3 GiB
 * held): cap the growth with {@link #withMaxPartSize} where that is too much, at the price of a lower
 * length limit ({@value #MAX_PARTS} parts). See
 * {@link ReactiveObject#write(org.reactivestreams.Publisher, UploadOptions)}. A file's upload
 * ({@link ReactiveObject#upload}) holds no part buffers: the SDK reads each part from the file as it
 * sends it, so by default more of its parts are in flight ({@value #DEFAULT_FILE_PARTS_IN_FLIGHT},
 * {@link #filePartsInFlight()}).
 *
 * <p><b>Answers:</b> every request of an upload must be answered within the
 * {@linkplain #withAnswerTimeout answer timeout} (5 minutes by default) after its body was sent,
 * or the upload fails with an {@link ObjectUploadTimeoutException} and is aborted.
 */
public final class UploadOptions {

    /** S3's smallest part (every part but the last): 5 MiB. */
    public static final int MIN_PART_SIZE_BYTES = 5 * 1024 * 1024;
    /**
     * The largest part this module assembles, and the default limit of its growth: 1 GiB (S3 allows
     * 5 GiB; a part here is held in memory until it is sent).
     */
    public static final int MAX_PART_SIZE_BYTES = 1024 * 1024 * 1024;
    /** S3's most parts in one multipart upload. */
    public static final int MAX_PARTS = 10_000;
    /** The default part size: 8 MiB. */
    public static final int DEFAULT_PART_SIZE_BYTES = 8 * 1024 * 1024;
    /** The default number of parts in flight of a stream's upload, each held in memory: 2. */
    public static final int DEFAULT_PARTS_IN_FLIGHT = 2;
    /**
     * The default number of parts in flight of a file's upload, each read from the file as it is
     * sent, so held by no buffer of the upload's: 8.
     */
    public static final int DEFAULT_FILE_PARTS_IN_FLIGHT = 8;
    /**
     * The default answer timeout: 5 minutes, longer than the Netty client's own retries of a silent
     * attempt (30 s each) and than S3 takes to complete a large multipart upload.
     */
    public static final Duration DEFAULT_ANSWER_TIMEOUT = Duration.ofMinutes(5);

    private static final UploadOptions DEFAULTS =
            new UploadOptions(DEFAULT_PART_SIZE_BYTES, MAX_PART_SIZE_BYTES, 0, -1, DEFAULT_ANSWER_TIMEOUT, null);

    private final int partSizeBytes; // the first part's size
    private final int maxPartSizeBytes; // the most the part size grows to (unknown length only)
    private final int partsInFlight; // UploadPart calls running at once, at least 1; 0: each kind's default
    private final long contentLength; // declared body length; -1: unknown
    private final Duration answerTimeout; // the longest wait for an answer after a request's body was sent
    private final Executor fileExecutor; // runs a file upload's file system calls; null: IoExecutors.files()

    private UploadOptions(
            int partSizeBytes,
            int maxPartSizeBytes,
            int partsInFlight,
            long contentLength,
            Duration answerTimeout,
            Executor fileExecutor) {
        this.partSizeBytes = partSizeBytes;
        this.maxPartSizeBytes = maxPartSizeBytes;
        this.partsInFlight = partsInFlight;
        this.contentLength = contentLength;
        this.answerTimeout = answerTimeout;
        this.fileExecutor = fileExecutor;
    }

    /**
     * The defaults: 8 MiB parts growing up to 1 GiB, 2 in flight (a file's: 8), length unknown,
     * answers within 5 minutes.
     *
     * @return the default options
     */
    public static UploadOptions defaults() {
        return DEFAULTS;
    }

    /**
     * Sets the (first) part size. A body of at most this many bytes is sent as one {@code PutObject};
     * a longer one as a multipart upload whose parts start at this size and, with an unknown length,
     * double every 500 parts up to {@linkplain #withMaxPartSize the maximum} (the last part may be
     * smaller). With a declared {@linkplain #withContentLength length} that would need more than
     * {@value #MAX_PARTS} parts, the size is raised to fit, and every part has that size.
     *
     * @param bytes between {@value #MIN_PART_SIZE_BYTES} and {@value #MAX_PART_SIZE_BYTES}
     * @return new options with that part size
     * @throws IllegalArgumentException if {@code bytes} is outside those bounds
     */
    public UploadOptions withPartSize(int bytes) {
        if (bytes < MIN_PART_SIZE_BYTES || bytes > MAX_PART_SIZE_BYTES) {
            throw new IllegalArgumentException("partSizeBytes must be between " + MIN_PART_SIZE_BYTES
                    + " (S3's smallest part) and " + MAX_PART_SIZE_BYTES + ", was " + bytes);
        }
        return new UploadOptions(bytes, maxPartSizeBytes, partsInFlight, contentLength, answerTimeout, fileExecutor);
    }

    /**
     * Caps the growth of the part size of an unknown-length body, and so its memory: at most
     * {@code (partsInFlight + 1) * bytes} of part buffers. A cap at or below the
     * {@linkplain #withPartSize part size} fixes the size; a body that outgrows {@value #MAX_PARTS}
     * parts then fails the upload (and aborts it) with an error naming the limit. Below 1 GiB the
     * cap also lowers the longest body that fits, below S3's 5 TiB. A declared length ignores it:
     * its one size is chosen so the body fits.
     *
     * @param bytes between {@value #MIN_PART_SIZE_BYTES} and {@value #MAX_PART_SIZE_BYTES}
     * @return new options with that cap
     * @throws IllegalArgumentException if {@code bytes} is outside those bounds
     */
    public UploadOptions withMaxPartSize(int bytes) {
        if (bytes < MIN_PART_SIZE_BYTES || bytes > MAX_PART_SIZE_BYTES) {
            throw new IllegalArgumentException("maxPartSizeBytes must be between " + MIN_PART_SIZE_BYTES
                    + " (S3's smallest part) and " + MAX_PART_SIZE_BYTES + ", was " + bytes);
        }
        return new UploadOptions(partSizeBytes, bytes, partsInFlight, contentLength, answerTimeout, fileExecutor);
    }

    /**
     * Sets how many {@code UploadPart} calls may run at once, for a stream's upload and a file's
     * alike (by default {@value #DEFAULT_PARTS_IN_FLIGHT} and {@value #DEFAULT_FILE_PARTS_IN_FLIGHT}).
     * Each is one HTTP connection of the client's pool while it runs.
     *
     * @param parts at least 1
     * @return new options with that bound
     * @throws IllegalArgumentException if {@code parts} is below 1
     */
    public UploadOptions withPartsInFlight(int parts) {
        if (parts < 1) {
            throw new IllegalArgumentException("partsInFlight must be at least 1, was " + parts);
        }
        return new UploadOptions(partSizeBytes, maxPartSizeBytes, parts, contentLength, answerTimeout, fileExecutor);
    }

    /**
     * Declares the body's length: a body that ends shorter, or goes on longer, fails the upload
     * (which is aborted: no object appears).
     *
     * @param bytes the exact length, at least 0
     * @return new options with that length
     * @throws IllegalArgumentException if {@code bytes} is negative
     */
    public UploadOptions withContentLength(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("contentLength must not be negative, was " + bytes);
        }
        return new UploadOptions(partSizeBytes, maxPartSizeBytes, partsInFlight, bytes, answerTimeout, fileExecutor);
    }

    /**
     * Sets how long the upload waits for the answer to each of its requests ({@code UploadPart},
     * {@code CompleteMultipartUpload}, {@code PutObject}, and the create and abort) once the request's
     * body has been handed to the client whole; a retry of the SDK's sends the body again and starts
     * the wait again. A request whose answer does not come in time is cancelled (its connection
     * closed) and fails the upload with an {@link ObjectUploadTimeoutException}; a multipart upload
     * is then aborted. It is a backstop for a server that takes a request and goes silent when the
     * client's own timeouts do not end the wait; a {@code CompleteMultipartUpload} may take S3
     * minutes, so keep it longer than that.
     *
     * @param timeout positive; by default {@link #DEFAULT_ANSWER_TIMEOUT}
     * @return new options with that timeout
     * @throws IllegalArgumentException if {@code timeout} is zero or negative
     * @throws NullPointerException if {@code timeout} is {@code null}
     */
    public UploadOptions withAnswerTimeout(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException("answerTimeout must be positive, was " + timeout);
        }
        return new UploadOptions(partSizeBytes, maxPartSizeBytes, partsInFlight, contentLength, timeout, fileExecutor);
    }

    /**
     * Sets the executor that makes a file's upload ({@link ReactiveObject#upload}) look at the file:
     * its type and size before anything is sent, and each range's attributes as its body is made. These are
     * file system calls that can block (a hung network mount), so they never run on the caller's
     * thread or an SDK thread. By default they run on the library's file pool
     * ({@code io.sluice.IoExecutors.files()}). The library never shuts this executor down; a task it
     * rejects fails the upload with the {@link java.util.concurrent.RejectedExecutionException},
     * and a multipart upload already begun is aborted. A stream's upload makes no file system calls
     * and does not use it.
     *
     * @param executor runs a file upload's file system calls
     * @return a copy with this executor
     * @throws NullPointerException if {@code executor} is {@code null}
     */
    public UploadOptions withFileExecutor(Executor executor) {
        Objects.requireNonNull(executor, "executor");
        return new UploadOptions(
                partSizeBytes, maxPartSizeBytes, partsInFlight, contentLength, answerTimeout, executor);
    }

    /**
     * The (first) part size.
     *
     * @return the size of the first part, in bytes
     */
    public int partSizeBytes() {
        return partSizeBytes;
    }

    /**
     * The cap on the part size's growth.
     *
     * @return the largest part of an unknown-length body, in bytes; at or below
     *     {@link #partSizeBytes()}, the size is fixed
     */
    public int maxPartSizeBytes() {
        return maxPartSizeBytes;
    }

    /**
     * The bound on parts in flight of a stream's upload, each held in memory until it is sent.
     *
     * @return how many {@code UploadPart} calls of a stream's upload may run at once
     */
    public int partsInFlight() {
        return partsInFlight > 0 ? partsInFlight : DEFAULT_PARTS_IN_FLIGHT;
    }

    /**
     * The bound on parts in flight of a file's upload, each read from the file as it is sent.
     *
     * @return how many {@code UploadPart} calls of a file's upload may run at once
     */
    public int filePartsInFlight() {
        return partsInFlight > 0 ? partsInFlight : DEFAULT_FILE_PARTS_IN_FLIGHT;
    }

    /**
     * The declared length.
     *
     * @return the body's declared length in bytes, or -1 if it is unknown
     */
    public long contentLength() {
        return contentLength;
    }

    /**
     * The answer timeout.
     *
     * @return how long the upload waits for a request's answer once its body was sent
     */
    public Duration answerTimeout() {
        return answerTimeout;
    }

    /**
     * The executor of a file upload's file system calls.
     *
     * @return the executor set by {@link #withFileExecutor}, or {@code null} for the library's file
     *     pool
     */
    public Executor fileExecutor() {
        return fileExecutor;
    }

    @Override
    public String toString() {
        return "UploadOptions[partSize=" + partSizeBytes + ", maxPartSize=" + maxPartSizeBytes
                + ", partsInFlight=" + partsInFlight() + ", filePartsInFlight=" + filePartsInFlight()
                + ", answerTimeout=" + answerTimeout
                + (fileExecutor != null ? ", fileExecutor=" + fileExecutor : "")
                + (contentLength >= 0 ? ", contentLength=" + contentLength : "") + "]";
    }
}
