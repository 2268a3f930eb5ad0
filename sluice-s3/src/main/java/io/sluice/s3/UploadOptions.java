package io.sluice.s3;

/**
 * How {@link ReactiveObject} uploads: the part size, how many parts may be in flight at once, and
 * the body's length when it is known. Immutable; the {@code with*} methods return new options.
 *
 * <p><b>Resources:</b> an upload holds at most {@code (partsInFlight + 1) * partSizeBytes} bytes of
 * part buffers (heap), plus the one item of its publisher whose bytes it is copying. See
 * {@link ReactiveObject#write(org.reactivestreams.Publisher, UploadOptions)}.
 */
public final class UploadOptions {

    /** S3's smallest part (every part but the last): 5 MiB. */
    public static final int MIN_PART_SIZE_BYTES = 5 * 1024 * 1024;
    /** The largest part this module assembles: 1 GiB (S3 allows 5 GiB; a part here is one heap buffer). */
    public static final int MAX_PART_SIZE_BYTES = 1024 * 1024 * 1024;
    /** S3's most parts in one multipart upload. */
    public static final int MAX_PARTS = 10_000;
    /** The default part size: 8 MiB. */
    public static final int DEFAULT_PART_SIZE_BYTES = 8 * 1024 * 1024;
    /** The default number of parts in flight: 2. */
    public static final int DEFAULT_PARTS_IN_FLIGHT = 2;

    private static final UploadOptions DEFAULTS =
            new UploadOptions(DEFAULT_PART_SIZE_BYTES, DEFAULT_PARTS_IN_FLIGHT, -1);

    private final int partSizeBytes;      // every part but the last
    private final int partsInFlight;      // UploadPart calls running at once, at least 1
    private final long contentLength;     // declared body length; -1: unknown

    private UploadOptions(int partSizeBytes, int partsInFlight, long contentLength) {
        this.partSizeBytes = partSizeBytes;
        this.partsInFlight = partsInFlight;
        this.contentLength = contentLength;
    }

    /**
     * The defaults: 8 MiB parts, 2 in flight, length unknown.
     *
     * @return the default options
     */
    public static UploadOptions defaults() {
        return DEFAULTS;
    }

    /**
     * Sets the part size. A body of at most this many bytes is sent as one {@code PutObject}; a
     * longer one as a multipart upload of parts of this size (the last one smaller). With a declared
     * {@linkplain #withContentLength length} that would need more than {@value #MAX_PARTS} parts,
     * the size is raised to fit; with an unknown length, a body that outgrows {@value #MAX_PARTS}
     * parts fails the upload (and aborts it) with an error naming the limit.
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
        return new UploadOptions(bytes, partsInFlight, contentLength);
    }

    /**
     * Sets how many {@code UploadPart} calls may run at once.
     *
     * @param parts at least 1
     * @return new options with that bound
     * @throws IllegalArgumentException if {@code parts} is below 1
     */
    public UploadOptions withPartsInFlight(int parts) {
        if (parts < 1) {
            throw new IllegalArgumentException("partsInFlight must be at least 1, was " + parts);
        }
        return new UploadOptions(partSizeBytes, parts, contentLength);
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
        return new UploadOptions(partSizeBytes, partsInFlight, bytes);
    }

    /**
     * The part size.
     *
     * @return the size of every part but the last, in bytes
     */
    public int partSizeBytes() {
        return partSizeBytes;
    }

    /**
     * The bound on parts in flight.
     *
     * @return how many {@code UploadPart} calls may run at once
     */
    public int partsInFlight() {
        return partsInFlight;
    }

    /**
     * The declared length.
     *
     * @return the body's declared length in bytes, or -1 if it is unknown
     */
    public long contentLength() {
        return contentLength;
    }

    @Override
    public String toString() {
        return "UploadOptions[partSize=" + partSizeBytes + ", partsInFlight=" + partsInFlight
                + (contentLength >= 0 ? ", contentLength=" + contentLength : "") + "]";
    }
}
