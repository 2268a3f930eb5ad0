package io.sluice.s3;

import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * An upload that failed for a reason of its own (a body shorter or longer than declared, more parts
 * than S3 allows), or whose abort failed: it names the bucket, the key and, once there is one, the
 * multipart upload id, so that an upload left behind can be found and aborted.
 *
 * <p>Failures the SDK reports ({@code NoSuchBucketException}, a lost connection) reach the stage
 * unchanged; an abort that failed after them is attached to them as a suppressed
 * {@code ObjectUploadException} with the upload id. That abort is retried in the background for a
 * bounded time (see {@link ReactiveObject#write(org.reactivestreams.Publisher, UploadOptions)}); if
 * the upload is still listed after it, abort it with
 * {@code AbortMultipartUpload(bucket(), key(), uploadId())}. A bucket lifecycle rule
 * {@code AbortIncompleteMultipartUpload} removes uploads nobody aborts.
 *
 * <p>The exception that reports a failed abort carries the outcome of its background retries,
 * {@link #abortOutcome()}: it completes normally once the upload is aborted, or exceptionally, with
 * an {@code ObjectUploadException} naming the upload id, once the retries gave up (which is also
 * logged as a {@code WARNING} of the {@code System.Logger} {@code io.sluice.s3}).
 */
public final class ObjectUploadException extends IOException {

    private static final long serialVersionUID = 1L;

    /** The bucket of the upload. */
    private final String bucket;
    /** The key of the upload. */
    private final String key;
    /** The multipart upload id, or {@code null} if none was created. */
    private final String uploadId;
    /** The background abort's outcome; not serialized. */
    private final transient CompletionStage<Void> abortOutcome;

    /**
     * Creates the exception.
     *
     * @param message what went wrong
     * @param bucket the bucket
     * @param key the key
     * @param uploadId the multipart upload id, or {@code null} if none was created
     * @param cause the underlying failure, or {@code null}
     */
    public ObjectUploadException(String message, String bucket, String key, String uploadId, Throwable cause) {
        this(message, bucket, key, uploadId, cause, CompletableFuture.completedStage(null));
    }

    /**
     * Creates the exception reporting an abort that failed and is retried in the background.
     *
     * @param message what went wrong
     * @param bucket the bucket
     * @param key the key
     * @param uploadId the multipart upload id, or {@code null} if none was created
     * @param cause the underlying failure, or {@code null}
     * @param abortOutcome completes once the upload is aborted, exceptionally once the retries gave up
     */
    public ObjectUploadException(
            String message,
            String bucket,
            String key,
            String uploadId,
            Throwable cause,
            CompletionStage<Void> abortOutcome) {
        super(
                message + " (s3://" + bucket + "/" + key + (uploadId == null ? "" : ", upload id " + uploadId) + ")",
                cause);
        this.bucket = bucket;
        this.key = key;
        this.uploadId = uploadId;
        this.abortOutcome = Objects.requireNonNull(abortOutcome, "abortOutcome");
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
     * The outcome of the abort this exception reports as failed and retried in the background: completes
     * normally once the multipart upload is aborted (or the server no longer knows it), exceptionally with
     * an {@code ObjectUploadException} naming the upload id once the retries gave up and the upload is
     * left stored. On an exception that reports no failed abort, a stage already completed normally; after
     * deserialization, a stage failed with {@link IllegalStateException} (the outcome is not serialized).
     *
     * @return a stage of the background abort's outcome
     */
    public CompletionStage<Void> abortOutcome() {
        if (abortOutcome == null) {
            return CompletableFuture.failedStage(new IllegalStateException("the abort's outcome is not serialized"));
        }
        return abortOutcome;
    }
}
