package io.sluice.s3;

import io.sluice.BytePublisher;
import io.sluice.IoExecutors;
import io.sluice.ReactiveFile;
import io.sluice.ReadOptions;
import io.sluice.WriteOptions;
import io.sluice.internal.RegularFiles;
import io.sluice.s3.internal.AbortRetries;
import io.sluice.s3.internal.ObjectReadPublisher;
import io.sluice.s3.internal.ObjectUpload;
import org.reactivestreams.FlowAdapters;
import org.reactivestreams.Publisher;
import software.amazon.awssdk.services.s3.S3AsyncClient;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;

/**
 * One object in S3-compatible storage, by bucket and key, through an {@link S3AsyncClient} the
 * application built (the Netty NIO HTTP client; see {@code docs/S3.md}). Uploads a publisher of
 * unknown length with memory bounded in bytes, reads the object or a range as a
 * {@link BytePublisher}, and downloads it into a file through {@link ReactiveFile}.
 *
 * <pre>{@code
 * ReactiveObject object = ReactiveObject.of(s3, "backups", "2026/11/db.dump");
 * object.write(Flux.from(dumper), UploadOptions.defaults())          // unknown length
 *       .thenCompose(stored -> object.downloadTo(Path.of("/restore/db.dump")));
 * }</pre>
 *
 * <p><b>Threading:</b> every method returns at once; nothing blocks a thread sluice does not own.
 * An upload's work runs on the thread that signals it (the publisher's {@code onNext}, the SDK's
 * completion threads, the caller completing the stage; a timeout's, sluice's own
 * {@code sluice-timeout-N}): it copies bytes and starts asynchronous calls, never waits.
 *
 * <p><b>Backpressure:</b> an upload requests one item at a time, and only when its bytes fit in the
 * upload's memory bound; a read passes its subscriber's demand to the SDK, whose Netty client reads
 * from the connection only against it.
 *
 * <p><b>Resources:</b> a stream's upload holds at most {@code (partsInFlight + 1) * currentPartSize}
 * bytes of part buffers, and no more than the bytes it received (in 256 KiB blocks), plus the one
 * item it is copying from; the part size of an unknown-length body grows with the bytes sent (see
 * {@link UploadOptions}). A file's upload holds no part buffers: the SDK reads the file as it sends. A read opens its HTTP stream on the first
 * request and closes it on completion, error or cancel.
 *
 * <p><b>Errors:</b> the SDK's exceptions reach the stage or {@code onError} unchanged and unwrapped
 * ({@code NoSuchBucketException}, {@code NoSuchKeyException}, {@code SdkClientException} for a
 * lost connection): they name the bucket and key in their request. A failure of the upload's own
 * (a length other than declared, too many parts at a capped part size) is an
 * {@link ObjectUploadException}; a request left unanswered for the answer timeout, an
 * {@link ObjectUploadTimeoutException}.
 */
public final class ReactiveObject {

    private final S3AsyncClient client;
    private final String bucket;
    private final String key;

    private ReactiveObject(S3AsyncClient client, String bucket, String key) {
        this.client = Objects.requireNonNull(client, "client");
        this.bucket = Objects.requireNonNull(bucket, "bucket");
        this.key = Objects.requireNonNull(key, "key");
    }

    /**
     * The object at {@code bucket}/{@code key}; nothing is sent yet.
     *
     * @param client the client to send requests with; the caller keeps it and closes it
     * @param bucket the bucket name
     * @param key the object key
     * @return the object
     * @throws NullPointerException if an argument is {@code null}
     */
    public static ReactiveObject of(S3AsyncClient client, String bucket, String key) {
        return new ReactiveObject(client, bucket, key);
    }

    /**
     * The bucket.
     *
     * @return the bucket name
     */
    public String bucket() {
        return bucket;
    }

    /**
     * The key.
     *
     * @return the object key
     */
    public String key() {
        return key;
    }

    /**
     * Uploads everything {@code publisher} publishes as this object, whose length need not be known.
     * A body of at most one part goes as one {@code PutObject}; a longer one as a multipart upload,
     * with at most {@code partsInFlight} parts in flight. The object appears only when the upload
     * succeeds.
     *
     * <p><b>Part sizes:</b> with an unknown length the parts start at the part size and double every
     * 500 parts up to the maximum part size (1 GiB by default), so 10,000 parts hold any body up to
     * S3's 5 TiB; with a declared length every part has one size, chosen up front so the body fits.
     *
     * <p><b>Memory:</b> at any moment the upload holds at most
     * {@code (partsInFlight + 1) * currentPartSize} bytes of part buffers (parts in flight, at most
     * one part waiting for a slot and the part being filled), plus the one publisher item whose bytes
     * it is copying. The current part size grows only with the bytes already sent (at most
     * {@code partSizeBytes + sent / 500}), and the part buffers are 256 KiB blocks taken only as
     * bytes arrive, so they never hold more than the bytes received: with the defaults (8 MiB, 2 in flight) that is 24 MiB for
     * the first 500 parts (about 3.9 GiB), 384 MiB once 100 GiB are sent (128 MiB parts), and 3 GiB
     * from about 496 GiB on (1 GiB parts); {@link UploadOptions#withMaxPartSize} caps it.
     *
     * <p><b>Items:</b> each item's bytes are copied into part buffers; the publisher must not change
     * an item from {@code onNext} until it has been copied, which may be after {@code onNext}
     * returns (when all part buffers are busy). A lent chunk ({@link io.sluice.ChunkPool}) is given
     * back once copied, or when the upload ends without it.
     *
     * <p><b>Cancel and abort:</b> cancelling the stage ({@code toCompletableFuture().cancel(true)}),
     * completing it from outside ({@code complete}, {@code orTimeout}, ...), a publisher error, or a
     * failed call cancels the publisher, waits for the calls in flight, sends
     * {@code AbortMultipartUpload}, and only then completes the stage: no object and no parts are
     * left. Once the upload has sent {@code PutObject} or {@code CompleteMultipartUpload}, an outside
     * completion loses ({@code cancel} returns {@code false}) and the stage reports the server's
     * answer: the object may then exist.
     *
     * <p><b>A failed abort:</b> if the abort itself fails (the server is unreachable), the stage does
     * not wait: it fails at once with the original failure, which carries a suppressed
     * {@link ObjectUploadException} naming the bucket, key and upload id, and the abort is retried in
     * the background on sluice's daemon threads: 1 s after the failure, then after waits doubling
     * up to 30 s, with no retry started later than 5 minutes after the failure. A server that comes
     * back within that time is left with no upload; otherwise abort the named upload yourself. The
     * exception's {@link ObjectUploadException#abortOutcome()} tells which: it completes once the upload
     * is aborted, or fails naming it once the retries gave up (also logged as a {@code WARNING} of the
     * {@code System.Logger} {@code io.sluice.s3}). A bucket lifecycle rule
     * {@code AbortIncompleteMultipartUpload} is the backstop for uploads nobody aborts (a JVM that exits
     * ends the retries).
     *
     * <p><b>Answers:</b> a request whose answer does not come within the answer timeout
     * ({@link UploadOptions#withAnswerTimeout}, 5 minutes by default) after its body was sent is
     * cancelled and fails the upload with an {@link ObjectUploadTimeoutException}; the upload is then
     * aborted as above.
     *
     * @param publisher the body; subscribed to once
     * @param options part sizes, parts in flight, declared length
     * @return a stage that completes with what was stored
     * @throws NullPointerException if an argument is {@code null}
     */
    public CompletionStage<UploadResult> write(Publisher<? extends ByteBuffer> publisher, UploadOptions options) {
        Objects.requireNonNull(publisher, "publisher");
        Objects.requireNonNull(options, "options");
        ObjectUpload upload = newUpload(options, options.partsInFlight());
        @SuppressWarnings("unchecked")
        Publisher<ByteBuffer> body = (Publisher<ByteBuffer>) publisher;
        body.subscribe(upload);
        return upload.result();
    }

    /**
     * Uploads a {@link Flow.Publisher}, as {@link #write(Publisher, UploadOptions)}.
     *
     * @param publisher the body; subscribed to once
     * @param options part size, parts in flight, declared length
     * @return a stage that completes with what was stored
     * @throws NullPointerException if an argument is {@code null}
     */
    public CompletionStage<UploadResult> write(Flow.Publisher<? extends ByteBuffer> publisher, UploadOptions options) {
        Objects.requireNonNull(publisher, "publisher");
        return write(FlowAdapters.toPublisher(publisher), options);
    }

    /**
     * Uploads a {@link BytePublisher} (both kinds of publisher at once), as
     * {@link #write(Publisher, UploadOptions)}.
     *
     * @param publisher the body; subscribed to once
     * @param options part size, parts in flight, declared length
     * @return a stage that completes with what was stored
     * @throws NullPointerException if an argument is {@code null}
     */
    public CompletionStage<UploadResult> write(BytePublisher publisher, UploadOptions options) {
        return write((Publisher<ByteBuffer>) publisher, options);
    }

    /**
     * Uploads a file, read by the SDK straight from the file (in 256 KiB reads), with no part
     * buffers. Its length and modification time, found when the upload starts, are checked again
     * just before the last byte of every request body is sent: a file whose length or modification
     * time changed meanwhile is never stored, and the upload fails with an
     * {@link ObjectUploadException} naming the file (a multipart upload is aborted). A write that
     * leaves both as they were (within the file system's timestamp granularity) is not seen. A file that would need more than
     * {@value UploadOptions#MAX_PARTS} parts gets larger ones.
     *
     * <p>A file of at least one byte and at most the part size goes as one {@code PutObject}.
     * Cancelling or completing the stage from outside wins until its last byte is sent, leaving no
     * object; after it {@code cancel} returns {@code false}. A larger file goes as a multipart upload
     * of consecutive ranges of the file, at most {@link UploadOptions#filePartsInFlight()} at once; the
     * SDK sends each range's CRC32C in a trailer as it reads it (unless the client calculates
     * checksums only when required), and the upload is completed with every part's. Its memory is
     * the SDK's reads in flight and the HTTP client's buffers: no part is held whole. An empty file
     * is stored empty. A directory, FIFO, socket or device is refused before anything is sent, with
     * a {@link java.nio.file.FileSystemException} naming it.
     *
     * @param file the file to upload
     * @param options part size and parts in flight; a declared length is replaced by the file's
     * @return a stage that completes with what was stored, as {@link #write(Publisher, UploadOptions)}
     * @throws NullPointerException if an argument is {@code null}
     */
    public CompletionStage<UploadResult> upload(Path file, UploadOptions options) {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(options, "options");
        ObjectUpload upload = newUpload(options, options.filePartsInFlight());
        Executor files = options.fileExecutor() != null ? options.fileExecutor() : IoExecutors.files();
        try {
            files.execute(
                    () -> { // the size is a file system call: not on the caller's thread
                        long size;
                        try {
                            RegularFiles.requireRegular(file); // a FIFO's open could wait forever
                            size = Files.size(file);
                        } catch (Exception e) {
                            upload.failBeforeSubscribe(e);
                            return;
                        }
                        if (upload.putsWhole(size)) {
                            upload.putFile(file, size); // read by the SDK from the file: no part buffers
                            return;
                        }
                        if (size > 0) {
                            upload.uploadFileInParts(file, size, files); // parts read by the SDK from the file
                            return;
                        }
                        upload.declareLengthOf(file, size); // empty: one empty PutObject, as a stream
                        ReactiveFile.of(file)
                                .read(ReadOptions.defaults().withLentChunks().withExecutor(files))
                                .subscribe(upload);
                    });
        } catch (RuntimeException e) { // refused: nothing was sent
            upload.failBeforeSubscribe(e);
        }
        return upload.result();
    }

    /**
     * The whole object as a cold publisher, with the default {@link ObjectReadOptions} (an idle
     * timeout of 60 s): as {@link #read(ObjectReadOptions)}.
     *
     * @return a publisher of the object's bytes
     */
    public BytePublisher read() {
        return read(ObjectReadOptions.defaults());
    }

    /**
     * The whole object as a cold publisher: each subscriber's first request sends a
     * {@code GetObject}. Bytes arrive in the chunks the HTTP client reads; if the object's ETag is
     * the MD5 of its bytes (a single-part upload without KMS or customer keys), the bytes are
     * checked against it, and a mismatch, or a byte count other than the response's
     * {@code Content-Length}, ends the stream with an {@link java.io.IOException} instead of
     * {@code onComplete}. A read that gets no byte for the options' idle timeout while its
     * subscriber waits for some ends with an {@link ObjectReadTimeoutException}, its HTTP stream
     * cancelled.
     *
     * @param options the idle timeout
     * @return a publisher of the object's bytes
     * @throws NullPointerException if {@code options} is {@code null}
     */
    public BytePublisher read(ObjectReadOptions options) {
        return new ObjectReadPublisher(client, bucket, key, null, Objects.requireNonNull(options, "options"));
    }

    /**
     * A range of the object with the default {@link ObjectReadOptions}, as
     * {@link #readRange(long, long, ObjectReadOptions)}.
     *
     * @param offset the first byte, at least 0
     * @param length the bytes to read, at least 1; {@code Long.MAX_VALUE} reads to the end
     * @return a publisher of the range's bytes
     * @throws IllegalArgumentException if {@code offset} is negative or {@code length} below 1
     */
    public BytePublisher readRange(long offset, long length) {
        return readRange(offset, length, ObjectReadOptions.defaults());
    }

    /**
     * A range of the object, as {@link #read(ObjectReadOptions)} (the byte count is checked; there is
     * no checksum of a range to check).
     *
     * @param offset the first byte, at least 0
     * @param length the bytes to read, at least 1; {@code Long.MAX_VALUE} reads to the end
     * @param options the idle timeout
     * @return a publisher of the range's bytes; a range starting past the end fails with the SDK's
     *     {@code S3Exception} (416)
     * @throws IllegalArgumentException if {@code offset} is negative or {@code length} below 1
     * @throws NullPointerException if {@code options} is {@code null}
     */
    public BytePublisher readRange(long offset, long length, ObjectReadOptions options) {
        if (offset < 0 || length < 1) {
            throw new IllegalArgumentException("offset must be >= 0 and length >= 1, were " + offset + ", " + length);
        }
        String last = length == Long.MAX_VALUE || offset + length - 1 < 0 ? "" : Long.toString(offset + length - 1);
        return new ObjectReadPublisher(
                client, bucket, key, "bytes=" + offset + "-" + last, Objects.requireNonNull(options, "options"));
    }

    /**
     * The last {@code length} bytes of the object with the default {@link ObjectReadOptions}, as
     * {@link #readLast(long, ObjectReadOptions)}.
     *
     * @param length the bytes to read, at least 1; an object shorter than that is read whole
     * @return a publisher of the object's last bytes
     * @throws IllegalArgumentException if {@code length} is below 1
     */
    public BytePublisher readLast(long length) {
        return readLast(length, ObjectReadOptions.defaults());
    }

    /**
     * The last {@code length} bytes of the object (an HTTP suffix range), as {@link #readRange}.
     *
     * @param length the bytes to read, at least 1; an object shorter than that is read whole
     * @param options the idle timeout
     * @return a publisher of the object's last bytes
     * @throws IllegalArgumentException if {@code length} is below 1
     * @throws NullPointerException if {@code options} is {@code null}
     */
    public BytePublisher readLast(long length, ObjectReadOptions options) {
        if (length < 1) {
            throw new IllegalArgumentException("length must be >= 1, was " + length);
        }
        return new ObjectReadPublisher(
                client, bucket, key, "bytes=-" + length, Objects.requireNonNull(options, "options"));
    }

    /**
     * Downloads the object into {@code target}, atomically and durably: the core writes it to a
     * temporary file beside the target, forces it to disk and renames it over the target, and does
     * that only if the stream completed, that is after the bytes were checked against the ETag
     * (see {@link #read()}). On any failure or cancel the target is left as it was.
     *
     * @param target the file to create or replace
     * @return a stage that completes with the bytes written
     * @throws NullPointerException if {@code target} is {@code null}
     */
    public CompletionStage<Long> downloadTo(Path target) {
        return downloadTo(target, WriteOptions.defaults().withAtomicReplace().withSync());
    }

    /**
     * Downloads the object into {@code target} with the core's {@link WriteOptions}: the file's
     * guarantees are {@link ReactiveFile#write(Publisher, WriteOptions)}'s. Only with
     * {@link WriteOptions#withAtomicReplace()} does a failed check (see {@link #read()}) leave the
     * target untouched; without it the target may hold part of the object.
     *
     * @param target the file to write
     * @param options the core's write options
     * @return a stage that completes with the bytes written
     * @throws NullPointerException if an argument is {@code null}
     */
    public CompletionStage<Long> downloadTo(Path target, WriteOptions options) {
        return downloadTo(target, options, ObjectReadOptions.defaults());
    }

    /**
     * Downloads the object into {@code target} with the core's {@link WriteOptions}, reading it with
     * {@code readOptions}, as {@link #downloadTo(Path, WriteOptions)}: an idle timeout that expires
     * fails the stage with an {@link ObjectReadTimeoutException}, and, with atomic replace, leaves the
     * target as it was.
     *
     * @param target the file to write
     * @param options the core's write options
     * @param readOptions the idle timeout
     * @return a stage that completes with the bytes written
     * @throws NullPointerException if an argument is {@code null}
     */
    public CompletionStage<Long> downloadTo(Path target, WriteOptions options, ObjectReadOptions readOptions) {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(options, "options");
        return ReactiveFile.of(target).write(read(readOptions), options);
    }

    private ObjectUpload newUpload(UploadOptions options, int partsInFlight) {
        return new ObjectUpload(
                client,
                bucket,
                key,
                options.partSizeBytes(),
                options.maxPartSizeBytes(),
                partsInFlight,
                UploadOptions.MAX_PARTS,
                options.contentLength(),
                AbortRetries.DEFAULT,
                options.answerTimeout());
    }

    @Override
    public String toString() {
        return "ReactiveObject[s3://" + bucket + "/" + key + "]";
    }
}
