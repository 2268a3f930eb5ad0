package io.sluice.s3;

import java.io.IOException;
import java.time.Duration;

/**
 * A request of an upload whose answer did not come within the {@linkplain UploadOptions#withAnswerTimeout
 * answer timeout} after its body was sent whole: a server that took the bytes and went silent without
 * closing the connection. The request was cancelled (its connection closed) and the upload failed;
 * a multipart upload was aborted. Its stage may carry a suppressed {@link ObjectUploadException} if
 * that abort failed too.
 *
 * <p>For {@code CompleteMultipartUpload} and {@code PutObject} the server may have stored the object
 * before its answer was lost: the object may exist.
 */
public final class ObjectUploadTimeoutException extends IOException {

    private static final long serialVersionUID = 1L;

    /** The bucket of the upload. */
    private final String bucket;
    /** The key of the upload. */
    private final String key;
    /** The multipart upload id, or {@code null} if none was created. */
    private final String uploadId;
    /** The request that went unanswered, as "UploadPart 3" or "CompleteMultipartUpload". */
    private final String request;
    /** The answer timeout that expired. */
    private final Duration answerTimeout;

    /**
     * Creates the exception.
     *
     * @param bucket the bucket
     * @param key the key
     * @param uploadId the multipart upload id, or {@code null} if none was created
     * @param request the request that went unanswered, as "UploadPart 3"
     * @param answerTimeout the answer timeout that expired
     */
    public ObjectUploadTimeoutException(
            String bucket, String key, String uploadId, String request, Duration answerTimeout) {
        super("s3://" + bucket + "/" + key + (uploadId == null ? "" : ", upload id " + uploadId) + ": no answer to "
                + request + " within " + answerTimeout.toMillis() + " ms after its body was sent (answer timeout);"
                + " the request was cancelled"
                + (request.startsWith("Complete") || request.startsWith("Put")
                        ? ", and the object may exist if the server stored it before its answer was lost"
                        : ""));
        this.bucket = bucket;
        this.key = key;
        this.uploadId = uploadId;
        this.request = request;
        this.answerTimeout = answerTimeout;
    }

    /**
     * The bucket.
     *
     * @return the bucket of the upload
     */
    public String bucket() {
        return bucket;
    }

    /**
     * The key.
     *
     * @return the key of the upload
     */
    public String key() {
        return key;
    }

    /**
     * The multipart upload id.
     *
     * @return the id of the multipart upload, or {@code null} if none was created
     */
    public String uploadId() {
        return uploadId;
    }

    /**
     * The request that went unanswered.
     *
     * @return its operation and, for a part, its number: "UploadPart 3", "CompleteMultipartUpload"
     */
    public String request() {
        return request;
    }

    /**
     * The answer timeout that expired.
     *
     * @return how long the upload waited for the answer after the request's body was sent
     */
    public Duration answerTimeout() {
        return answerTimeout;
    }
}
