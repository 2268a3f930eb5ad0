package io.sluice.s3;

/**
 * What a finished upload stored.
 */
public final class UploadResult {

    private final long bytes;
    private final String eTag;
    private final int parts;

    /**
     * Describes a stored object.
     *
     * @param bytes the bytes stored
     * @param eTag the object's ETag as the server returned it
     * @param parts 1 for a single {@code PutObject}, else the parts of the multipart upload
     */
    public UploadResult(long bytes, String eTag, int parts) {
        this.bytes = bytes;
        this.eTag = eTag;
        this.parts = parts;
    }

    /**
     * The length.
     *
     * @return the bytes stored
     */
    public long bytes() {
        return bytes;
    }

    /**
     * The ETag.
     *
     * @return the object's ETag as the server returned it (quotes included)
     */
    public String eTag() {
        return eTag;
    }

    /**
     * The parts.
     *
     * @return 1 if the body went as one {@code PutObject}, else the number of parts uploaded
     */
    public int parts() {
        return parts;
    }

    @Override
    public String toString() {
        return "UploadResult[bytes=" + bytes + ", eTag=" + eTag + ", parts=" + parts + "]";
    }
}
