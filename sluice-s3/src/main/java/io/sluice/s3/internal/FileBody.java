package io.sluice.s3.internal;

import io.sluice.s3.ObjectUploadException;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import software.amazon.awssdk.core.FileRequestBodyConfiguration;
import software.amazon.awssdk.core.async.AsyncRequestBody;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.zip.CRC32C;

/**
 * A file, or one range of it, as a request body read by the SDK's own file body
 * ({@code AsyncRequestBody.fromFile}) straight from the file, in {@value #READ_BYTES}-byte reads:
 * no part buffers hold it. The whole file is the body of one {@code PutObject}; a range is the body
 * of one {@code UploadPart}. The last byte of a body is where the file is checked, and, for a whole
 * file, where the upload commits.
 *
 * <p>Invariants:
 * <ul>
 *   <li>V1 (the last byte decides): the read that completes the body's length is handed to the
 *       client only after the file was found unchanged (its length still the one found when the
 *       upload started, its modification time the one read then) and, for a whole file, the
 *       upload's point of no return was claimed ({@code commit}); if either fails, that read is
 *       withheld, the file's read cancelled and the send failed. The server stores a body only once
 *       it has every byte, so an outside completion that wins the claim leaves no object, and a file
 *       that grew or shrank after its size was found, or was written after its modification time was
 *       read, is never stored. For the parts of one file, the part whose check comes last checks
 *       after every part's reads have ended, so no part of a file that changed meanwhile passes
 *       unnoticed; a range claims nothing (the upload commits at its complete, O5).</li>
 *   <li>V2 (refused for good): the first refusal (a changed file, a lost claim, a failed read) is
 *       kept and reported as the upload's failure ({@link #refusal}); a later send (an SDK retry)
 *       fails at once with it, without opening the file. A changed file is reported as an
 *       {@link ObjectUploadException} naming the file, whatever the SDK's own check said first.</li>
 *   <li>V3 (descriptors): the file is open only while a send reads it: the SDK's body opens it on
 *       subscribe and closes it when the read ends, completes, fails or is cancelled.</li>
 *   <li>V4 (what is stored): the body's length, and the content type the stream's bodies have
 *       ({@code application/octet-stream}), not one guessed from the file's name.</li>
 *   <li>V5 (a range's checksum): a range made {@code checksummed} computes, on each send, the CRC32C
 *       of the reads it passes to the client, in order, and keeps it just before it passes the last
 *       one ({@link #sentChecksumCrc32c}), so before any answer to the call can arrive (the client
 *       may end the body at its length without waiting for {@code onComplete}): the value the SDK
 *       sends in its trailer for the same bytes, for the complete to name each part's.</li>
 * </ul>
 *
 * <p>Thread-safety: each send's signals come one at a time from the SDK's file reads (its
 * per-subscription state is confined to them); sends follow one another; the refusal and the
 * commit are shared (atomic; the claim is the stage's). The file's attributes are looked at only on
 * the thread that has just read it (the SDK's file channel's): the check of V1, the one place where
 * the last read can still be withheld, and the naming of a failed or short read. A failure before
 * any read (the SDK's open of the file, on the thread that subscribed, an SDK or Netty thread) is
 * passed on as it is, without looking at the file there.
 *
 * <p>What V1 sees: a change of the file's length or modification time. A write that leaves both as
 * they were (within the file system's timestamp granularity, or a writer that sets the time back)
 * is not seen.
 */
final class FileBody implements AsyncRequestBody {

    /** Bytes per read of the file: fewer reads, each a hop to the file channel's threads. */
    static final int READ_BYTES = 256 * 1024;

    private static final String OCTET_STREAM = "application/octet-stream";

    private final Path file;
    private final long fileLength; // the file's size when the upload started
    private final long length; // this body's bytes, at least 1: the whole file, or one range of it
    private final FileTime modifiedAtStart; // read once, before any send of the upload (V1)
    private final String bucket;
    private final String key;
    private final String uploadId; // the multipart upload a range is a part of; null for a whole file
    private final BooleanSupplier commit; // claims the stage's point of no return (V1); a range's always agrees
    private final AsyncRequestBody source; // the SDK's reader of the file, subscribed once per send
    private final AtomicReference<Throwable> refusal = new AtomicReference<>(); // V2: the first, kept
    private volatile boolean committed; // a send's last byte passes -> the upload's drain
    private final boolean checksummed; // whether each send computes the CRC32C of the bytes it passes (V5)
    private volatile String sentCrc32c; // the file's reads -> the upload's drain: the last whole send's (V5)

    private FileBody(
            Path file,
            long fileLength,
            long position,
            long length,
            FileTime modifiedAtStart,
            String bucket,
            String key,
            String uploadId,
            BooleanSupplier commit,
            boolean checksummed) {
        this.file = file;
        this.uploadId = uploadId;
        this.checksummed = checksummed;
        this.fileLength = fileLength;
        this.length = length;
        this.modifiedAtStart = modifiedAtStart;
        this.bucket = bucket;
        this.key = key;
        this.commit = commit;
        this.source = AsyncRequestBody.fromFile(FileRequestBodyConfiguration.builder() // looks at the file
                .path(file)
                .position(position)
                .numBytesToRead(length)
                .chunkSizeInBytes(READ_BYTES)
                .build());
    }

    /**
     * The whole file as one body, claiming the upload's point of no return with {@code commit} at its
     * last byte. Reads the file's attributes: a file system call, for a thread that may wait for one.
     *
     * @throws IOException if the file's attributes cannot be read (a file removed meanwhile)
     */
    static FileBody whole(Path file, long length, String bucket, String key, BooleanSupplier commit)
            throws IOException {
        FileTime modified = Files.getLastModifiedTime(file);
        try {
            return new FileBody(file, length, 0, length, modified, bucket, key, null, commit, false);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /**
     * Bytes {@code [position, position + length)} of a file found to have {@code fileLength} bytes
     * and {@code modifiedAtStart} when the upload started, as one part's body of the multipart
     * upload {@code uploadId} (which its failures name); {@code checksummed}:
     * each send computes the CRC32C of the bytes it passes (V5). The SDK's reader
     * looks at the file's attributes as it is made: a file system call, for a thread that may wait.
     *
     * @throws UncheckedIOException if the file cannot be looked at (a file removed meanwhile): the
     *     SDK's, with the {@link IOException} as its cause
     */
    static FileBody range(
            Path file,
            long fileLength,
            FileTime modifiedAtStart,
            long position,
            long length,
            String bucket,
            String key,
            String uploadId,
            boolean checksummed) {
        return new FileBody(
                file, fileLength, position, length, modifiedAtStart, bucket, key, uploadId, () -> true, checksummed);
    }

    long length() {
        return length;
    }

    /** Whether a send's last byte went to the client, past the point of no return (V1). */
    boolean committed() {
        return committed;
    }

    /**
     * The CRC32C of the bytes the last whole send passed to the client, as S3's
     * {@code x-amz-checksum-crc32c} carries it, or {@code null} if no send passed them all or the
     * body computes none (V5).
     */
    String sentChecksumCrc32c() {
        return sentCrc32c;
    }

    /** Why the body refused a send (V2), or {@code otherwise} if it refused none. */
    Throwable refusal(Throwable otherwise) {
        Throwable refused = refusal.get();
        return refused != null ? refused : otherwise;
    }

    @Override
    public Optional<Long> contentLength() {
        return Optional.of(length);
    }

    @Override
    public String contentType() {
        return OCTET_STREAM; // V4
    }

    @Override
    public void subscribe(Subscriber<? super ByteBuffer> subscriber) {
        Throwable refused = refusal.get();
        if (refused != null) { // V2: a retry after a refusal
            subscriber.onSubscribe(new Subscription() {
                @Override
                public void request(long n) {}

                @Override
                public void cancel() {}
            });
            subscriber.onError(refused);
            return;
        }
        Send send = new Send(subscriber);
        send.subscribing = true;
        source.subscribe(send); // opens the file: a failure is signalled within this call
        send.subscribing = false;
    }

    private Throwable refuse(Throwable cause) {
        refusal.compareAndSet(null, cause);
        return refusal.get();
    }

    /**
     * The file's change since the upload started, as the upload's failure naming the file, or
     * {@code null} if none is seen; {@code readError} is what failed the read, if anything did. A
     * file that cannot be looked at after a read that failed with an {@link IOException} (one
     * removed before it was opened) is left to that exception, as a read of the stream's way reports it.
     */
    private ObjectUploadException changed(Throwable readError) {
        long size;
        FileTime modified;
        try {
            size = Files.size(file);
            modified = Files.getLastModifiedTime(file);
        } catch (IOException e) {
            return readError instanceof IOException ? null : failure("could not be checked after it was read", e);
        }
        if (size != fileLength) {
            return failure(
                    "changed size while it was uploaded: " + fileLength + " bytes when the upload started, " + size
                            + " now",
                    readError);
        }
        if (!modified.equals(modifiedAtStart)) {
            return failure(
                    "was written while it was uploaded: modified at " + modifiedAtStart
                            + " when the upload started, at " + modified + " now",
                    readError);
        }
        return null;
    }

    private ObjectUploadException failure(String what, Throwable cause) {
        return new ObjectUploadException("the file " + file + " " + what, bucket, key, uploadId, cause);
    }

    /** One send: passes the SDK's reads to the client, withholding the last one unless V1 allows it. */
    private final class Send implements Subscriber<ByteBuffer> {

        private final Subscriber<? super ByteBuffer> client;
        private Subscription reads; // set in onSubscribe, before any other signal
        private long sent; // bytes passed or being passed to the client
        private boolean done; // a terminal signal went to the client
        private volatile boolean subscribing; // the SDK's subscribe, which opens the file, has not returned
        private final CRC32C crc = checksummed ? new CRC32C() : null; // of the bytes passed, in order (V5)

        Send(Subscriber<? super ByteBuffer> client) {
            this.client = client;
        }

        @Override
        public void onSubscribe(Subscription subscription) {
            reads = subscription;
            client.onSubscribe(subscription);
        }

        @Override
        public void onNext(ByteBuffer read) {
            if (done) {
                return;
            }
            sent += read.remaining();
            if (sent >= length) {
                Throwable stop =
                        sent > length ? refuse(failure("was longer than " + length + " bytes", null)) : lastByte();
                if (stop != null) {
                    reads.cancel(); // V1: withheld; V3: the SDK closes the file
                    terminate(stop);
                    return;
                }
            }
            if (crc != null) {
                crc.update(read.duplicate()); // V5: before the client may consume the buffer
                if (sent == length) {
                    sentCrc32c = Crc32c.header(crc); // V5: before the last byte, so before any answer
                }
            }
            client.onNext(read);
        }

        /** V1: the file unchanged, then the claim; the refusal, or {@code null} if the last read may pass. */
        private Throwable lastByte() {
            ObjectUploadException change = changed(null);
            if (change != null) {
                return refuse(change);
            }
            if (!commit.getAsBoolean()) {
                return refuse(new CancellationException(
                        "the upload of " + file + " was completed from outside before its last byte was sent"));
            }
            committed = true;
            return null;
        }

        @Override
        public void onError(Throwable error) {
            if (done) {
                return;
            }
            if (subscribing) { // the open failed, on the thread that subscribed (an SDK or Netty thread)
                terminate(refuse(error)); // not looked into here: the SDK's exception names the file
                return;
            }
            ObjectUploadException change = changed(error); // the SDK's own check, a short read: name the file
            terminate(refuse(change != null ? change : error));
        }

        @Override
        public void onComplete() {
            if (done) {
                return;
            }
            if (sent < length) { // the SDK checks this itself; never pass a short body as whole
                ObjectUploadException change = changed(null);
                terminate(refuse(
                        change != null ? change : failure("ended after " + sent + " of " + length + " bytes", null)));
                return;
            }
            done = true;
            client.onComplete();
        }

        private void terminate(Throwable error) {
            done = true;
            client.onError(error);
        }
    }
}
