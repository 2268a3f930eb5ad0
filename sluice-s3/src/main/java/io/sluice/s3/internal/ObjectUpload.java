package io.sluice.s3.internal;

import io.sluice.ChunkPool;
import io.sluice.internal.OperationFuture;
import io.sluice.s3.ObjectUploadException;
import io.sluice.s3.ObjectUploadTimeoutException;
import io.sluice.s3.UploadOptions;
import io.sluice.s3.UploadResult;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.NoSuchUploadException;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * Uploads the byte stream it subscribes to as one object: a single {@code PutObject} if the stream
 * ends within one part, else a multipart upload whose parts are assembled from the stream. A file
 * is instead read by the SDK straight from the file: put whole if it fits one part
 * ({@link #putFile}), else in parts, one range of the file each ({@link #uploadFileInParts}).
 *
 * <p>Overview. Every signal, from upstream ({@code onSubscribe}, {@code onNext}, ...), from the SDK
 * (a part, the create, the complete or the abort finished) or from the stage's caller (an outside
 * completion), is an event on one {@link SerialEvents}; all fields below the configuration are
 * drain-confined. One pass of {@link #pump()} copies the held item into the part being assembled,
 * starts the parts that are ready, and asks upstream for one more item when there is room for it.
 *
 * <p>Invariants:
 * <ul>
 *   <li>O1 (memory): parts alive (assembling + sealed + in flight) are at most
 *       {@code partsInFlight + 1}, each at most the current part size (sizes never decrease, O7);
 *       their memory is blocks of {@link PartBuffers}, taken as bytes arrive, so a part holds its
 *       bytes rounded up to a block, and the blocks alive, free ones included, are at most
 *       {@code (partsInFlight + 1) * partSizeBytes} (PartBuffers states why), for the part size of
 *       the part being assembled. The only other bytes held are those of the one upstream item
 *       being copied.</li>
 *   <li>O2 (demand): one item is requested at a time, and only when no item is held and a part
 *       with room exists or may be started under O1, so demand never outruns memory. An item
 *       nobody requested fails the upload (§1.1) rather than replace the one held.</li>
 *   <li>O3 (§2.7): every call on the upstream subscription comes from the drain.</li>
 *   <li>O4 (abort): once failing, no part, create or complete is started; the abort waits for the
 *       create and every part in flight to end, so no part lands after {@code AbortMultipartUpload};
 *       only then does the stage complete. Upstream is cancelled first (§3.13 for the publisher).</li>
 *   <li>O5 (commit): {@code PutObject} and {@code CompleteMultipartUpload} are sent only after the
 *       stage's point of no return was claimed; an outside completion that came first wins and
 *       aborts instead. A file put (O10) claims it later, at the body's last byte.</li>
 *   <li>O6 (loans): a lent chunk is given back once its bytes are copied, or when the upload ends
 *       without them; owned items are dropped once copied. The publisher must not change an item's
 *       bytes between {@code onNext} and that moment.</li>
 *   <li>O7 (part sizes): part {@code n}'s size is {@link PartSizes#sizeOf}{@code (n)}, fixed when its
 *       buffer is taken; parts are numbered in the order they are sealed, so the sizes S3 receives
 *       never decrease (the last part may be smaller). A declared length replaces the schedule by one
 *       fixed size before any byte arrives.</li>
 *   <li>O8 (abort retries): an abort that fails (the server is unreachable) does not hold the stage:
 *       the stage fails at once with the failure, carrying a suppressed {@link ObjectUploadException}
 *       that names the upload id, and {@link AbortRetries} retries the abort in the background on
 *       sluice's threads for a bounded time (its T1-T3), so a server that comes back in time is left
 *       with no upload. The exception carries the retries' outcome ({@code abortOutcome}), and their
 *       giving up is logged with the upload id.</li>
 *   <li>O9 (answers): every call (create, part, put, complete, abort) is answered within the answer
 *       timeout after its body was sent ({@link AnswerDeadline}, L1-L3), or it fails with an
 *       {@link ObjectUploadTimeoutException} and is cancelled; the upload then ends as after any failed
 *       call (O4). An abort that is not answered in time counts as failed (O8).</li>
 *   <li>O10 (file put): a file of at least one byte and at most the first part's size, whose size
 *       was found just before ({@link #putsWhole}), goes as one {@code PutObject} whose body reads
 *       the file itself ({@link FileBody}): no upstream, no part buffers, no multipart upload. Its
 *       body claims the point of no return just before it hands the client the file's last byte,
 *       once the file is found unchanged (FileBody's V1), because until then the server cannot store
 *       the object. So an outside completion wins until that byte: it cancels the call, which then
 *       ends without it, and the stage completes once the call has ended (O4). Only an outside claim
 *       cancels the call: after the body's claim the stage reports the server's answer (U2).</li>
 *   <li>O11 (checksums): every body sent from parts carries the CRC32C of its bytes, computed as they
 *       are copied from the items ({@link Part}), in {@code x-amz-checksum-crc32c}; a multipart
 *       upload is created for CRC32C and completed with each part's. So the server refuses bytes
 *       that changed between the publisher's items and its disk, and the SDK, finding the
 *       checksum given, sends the body as it is instead of computing one of its own in an
 *       {@code aws-chunked} trailer, which would copy every byte once more. It follows the
 *       client's own rule: a client built to calculate request checksums only when an operation
 *       requires them ({@code RequestChecksumCalculation.WHEN_REQUIRED}, for a store that refuses
 *       them) gets none from sluice either. A file's range (O12) has no bytes before it is sent, so
 *       its CRC32C goes in the SDK's trailer, computed as the SDK reads the range, and the same
 *       value, computed by the body from the same reads (FileBody's V5), names the part in the
 *       complete.</li>
 *   <li>O12 (file parts): a file larger than the first part goes as a multipart upload of
 *       consecutive ranges of the file, each the body of one {@code UploadPart} read by the SDK
 *       from the file ({@link FileBody}), at most {@code partsInFlight} at once, with the one part
 *       size the declared length fixes (O7): no upstream, no part buffers (O1 holds with none). A
 *       range counts against k from when it is taken, as its body is made on a file system thread;
 *       the abort waits only for the ranges whose calls started (O4), not for a body being made (a
 *       look at a file on a hung mount would hold it), as a body made after the upload ended is never
 *       sent, and the complete waits for both. Every range's body checks the
 *       file just before its last byte (FileBody's V1), so a file changed during the upload fails
 *       it, naming the file, before the complete; the complete follows the last range's answer.</li>
 * </ul>
 *
 * <p>The stage ({@link #result()}) is the core's {@link OperationFuture} with an asynchronous abort
 * (its F4), because aborting a multipart upload is a network call and the completing thread may be
 * one that must not wait (an SDK event loop, a timer):
 * <ul>
 *   <li>U1: the stage is claimed exactly once (F1); the abort event runs exactly when an outside
 *       completion claimed it, once, and the stage completes, as that completion asked, only when
 *       the abort has finished (O4) and the event calls back ({@code outsideCompletion}).</li>
 *   <li>U2: the upload claims its point of no return ({@code enterCommit}, F2) just before sending
 *       the request that makes the object visible ({@code PutObject}, {@code CompleteMultipartUpload}),
 *       or, for a file put, the last byte of that request's body (O10);
 *       from then on outside completions lose ({@code cancel} returns {@code false}) and the stage
 *       reports what the server did (O5).</li>
 *   <li>U3: between an outside claim and the abort's end, {@code cancel} has returned {@code true}
 *       but {@code isDone()} is still {@code false} (F4); {@code orTimeout} starts the abort on
 *       sluice's timeout thread (F3), not the JDK's shared delayer.</li>
 * </ul>
 */
public final class ObjectUpload implements Subscriber<ByteBuffer> {

    private enum State {
        RUNNING,
        ABORTING,
        DONE
    }

    private final S3AsyncClient client;
    private final String bucket;
    private final String key;
    private final int partsInFlight; // O1: k
    private final int firstPartBytes; // O10: a file up to it is put whole
    private final int maxParts; // S3's 10,000 (lower in tests)
    private final AbortRetries abortRetries; // O8: the schedule (shorter in tests)
    private final Duration answerTimeout; // O9
    private final boolean checksums; // O11: whether parts compute and send their CRC32C, as the client's setting says
    private volatile AbortRetries.Retrying retrying; // drain -> tests: the background abort, null if none (O8)
    private final OperationFuture<UploadResult> result = new OperationFuture<>(); // U1-U3
    private final SerialEvents drain = new SerialEvents(this::fail);

    private PartSizes partSizes; // drain-confined; replaced once by declareLength before any byte (O7)
    private int partSizeBytes; // drain-confined: the size of the part being assembled (O7)
    private int partsSealed; // drain-confined: parts assembled so far; the next is partsSealed + 1
    private long declaredLength = -1; // drain-confined; -1: unknown
    private Path declaredBy; // drain-confined: the file whose size was declared, null for a stream's
    private State state = State.RUNNING; // drain-confined
    private Subscription upstream; // drain-confined (O3)
    private boolean requested; // drain-confined: one item asked for, not yet received (O2)
    private boolean upstreamDone; // drain-confined: onComplete/onError seen, or cancelled
    private ByteBuffer held; // drain-confined: the item being copied, null if none
    private final PartBuffers buffers = new PartBuffers(); // drain-confined: the parts' blocks (O1)
    private Part assembling; // drain-confined: the part being filled, null if none
    private final ArrayDeque<Part> sealed = new ArrayDeque<>(); // drain-confined: full parts waiting to start
    private volatile long retainedBytes; // drain -> tests: blocks alive, as of the last event
    private long received; // drain-confined: bytes taken from upstream
    private String uploadId; // drain-confined: null until CreateMultipartUpload answered
    private boolean creating; // drain-confined: CreateMultipartUpload in flight
    private int partsRunning; // drain-confined: UploadPart calls in flight (<= k)
    private int rangesBeingMade; // drain-confined: a file's ranges whose bodies are being made (O12)
    private int nextPartNumber = 1; // drain-confined
    private final List<CompletedPart> completedParts = new ArrayList<>(); // drain-confined
    private boolean committing; // drain-confined: PutObject or Complete sent (O5)
    private CompletableFuture<PutObjectResponse> filePut; // drain-confined: a file put's call, or null (O10)
    private FileRanges fileRanges; // drain-confined: the file read in parts, or null for a stream (O12)
    private Executor rangeExecutor; // drain-confined: makes each range's body (it looks at the file), with fileRanges
    private boolean abortSent; // drain-confined
    private Throwable failure; // drain-confined: the first failure
    private Runnable outsideCompletion; // drain-confined: completes the stage after an outside claim (U1)

    /**
     * Creates an upload; subscribe it to the body's publisher, or call {@link #fail} before.
     *
     * @param client the SDK client
     * @param bucket the bucket
     * @param key the key
     * @param partSizeBytes the first part's size (not checked against S3's minimum: tests use less)
     * @param maxPartSizeBytes the most the part size grows to; at or below {@code partSizeBytes}: fixed
     * @param partsInFlight UploadPart calls at once, at least 1
     * @param maxParts the most parts allowed; the growth schedule is a function of it (O7)
     * @param declaredLength the body's length, or -1 if unknown
     */
    public ObjectUpload(
            S3AsyncClient client,
            String bucket,
            String key,
            int partSizeBytes,
            int maxPartSizeBytes,
            int partsInFlight,
            int maxParts,
            long declaredLength) {
        this(
                client,
                bucket,
                key,
                partSizeBytes,
                maxPartSizeBytes,
                partsInFlight,
                maxParts,
                declaredLength,
                AbortRetries.DEFAULT,
                UploadOptions.DEFAULT_ANSWER_TIMEOUT);
    }

    /**
     * As the constructor above, retrying a failed abort on {@code abortRetries}' schedule (O8) and
     * waiting at most {@code answerTimeout} for each call's answer once its body was sent (O9).
     */
    public ObjectUpload(
            S3AsyncClient client,
            String bucket,
            String key,
            int partSizeBytes,
            int maxPartSizeBytes,
            int partsInFlight,
            int maxParts,
            long declaredLength,
            AbortRetries abortRetries,
            Duration answerTimeout) {
        this.abortRetries = Objects.requireNonNull(abortRetries, "abortRetries");
        this.answerTimeout = Objects.requireNonNull(answerTimeout, "answerTimeout");
        this.client = Objects.requireNonNull(client, "client");
        this.checksums = calculatesChecksums(client);
        this.bucket = Objects.requireNonNull(bucket, "bucket");
        this.key = Objects.requireNonNull(key, "key");
        this.partSizes = PartSizes.growing(partSizeBytes, maxPartSizeBytes, maxParts);
        this.partSizeBytes = partSizes.sizeOf(1);
        this.firstPartBytes = partSizeBytes;
        this.partsInFlight = partsInFlight;
        this.maxParts = maxParts;
        result.onAbortAsync(completion -> drain.submit(() -> abortFromOutside(completion))); // U1
        if (declaredLength >= 0) {
            declareLength(declaredLength);
        }
    }

    /**
     * Whether {@code client} calculates request checksums where an operation supports them (the
     * SDK's default), rather than only where one requires them (O11). A client that cannot say (a
     * hand-written {@link S3AsyncClient}) is taken to use the default.
     */
    private static boolean calculatesChecksums(S3AsyncClient client) {
        try {
            return client.serviceClientConfiguration().requestChecksumCalculation()
                    != RequestChecksumCalculation.WHEN_REQUIRED;
        } catch (UnsupportedOperationException e) {
            return true;
        }
    }

    /** The stage: completes with what was stored, or exceptionally once any multipart upload is aborted. */
    public OperationFuture<UploadResult> result() {
        return result;
    }

    /** The background retries of a failed abort, or {@code null} if the abort did not fail (O8). */
    public AbortRetries.Retrying abortRetrying() {
        return retrying;
    }

    /** The most bytes of part buffers alive at once so far (O1). */
    public long peakRetainedBytes() {
        return buffers.peakRetainedBytes();
    }

    /** The bytes of part buffers alive after the last event: 0 once the upload has ended. */
    public long retainedBytes() {
        return retainedBytes;
    }

    /**
     * Declares the body's length before any byte arrives: every part gets one size, the first
     * size raised (to whole MiB) if the body would not fit in {@code maxParts} parts of it, and a
     * body of another length fails the upload.
     */
    public void declareLength(long bytes) {
        declareLength(bytes, null);
    }

    /**
     * Declares the size of {@code file}, found just before its bytes are read, as the body's length
     * (as {@link #declareLength(long)}): a body of another length fails the upload naming the file,
     * which changed after its size was found.
     */
    public void declareLengthOf(Path file, long bytes) {
        declareLength(bytes, Objects.requireNonNull(file, "file"));
    }

    private void declareLength(long bytes, Path file) {
        drain.submit(() -> {
            declaredLength = bytes;
            declaredBy = file;
            long needed = (bytes + maxParts - 1) / maxParts;
            int size = partSizes.firstBytes();
            if (needed > size) {
                long mib = 1024 * 1024;
                size = (int) Math.min(Integer.MAX_VALUE - 8L, (needed + mib - 1) / mib * mib);
            }
            partSizes = PartSizes.fixed(size); // O7
            partSizeBytes = size;
        });
    }

    /**
     * Whether a file of {@code bytes} goes whole as one {@code PutObject} read from the file
     * ({@link #putFile}): it has a byte and fits the first part, so the stream would have sent it as
     * one {@code PutObject} too.
     */
    public boolean putsWhole(long bytes) {
        return bytes > 0 && bytes <= firstPartBytes;
    }

    /**
     * Uploads {@code file}, whose size was just found to be {@code bytes} (see {@link #putsWhole}),
     * as one {@code PutObject} whose body the SDK reads from the file (O10); instead of subscribing.
     * Reads the file's attributes: call it on a thread that may wait for the file system.
     */
    public void putFile(Path file, long bytes) {
        FileBody body;
        try {
            body = FileBody.whole(file, bytes, bucket, key, result::enterCommit);
        } catch (IOException | RuntimeException e) {
            failBeforeSubscribe(e);
            return;
        }
        drain.submit(() -> sendFile(body));
    }

    /**
     * Uploads {@code file}, whose size was just found to be {@code bytes} and too large for one
     * part, as a multipart upload whose parts the SDK reads from the file, range by range (O12);
     * instead of subscribing; each range's body is made on {@code files}, as it looks at the file.
     * Reads the file's attributes: call it on a thread that may wait for the file system.
     */
    public void uploadFileInParts(Path file, long bytes, Executor files) {
        Objects.requireNonNull(files, "files");
        FileTime modified;
        try {
            modified = Files.getLastModifiedTime(file);
        } catch (IOException | RuntimeException e) {
            failBeforeSubscribe(e);
            return;
        }
        declareLength(bytes);
        drain.submit(() -> {
            if (state != State.RUNNING) {
                return; // an outside completion came first and has ended the upload
            }
            fileRanges = new FileRanges(file, bytes, modified);
            rangeExecutor = files;
            received = bytes;
            pump();
        });
    }

    /** Fails the upload from outside the stream (e.g. the body's length could not be found). */
    public void failBeforeSubscribe(Throwable cause) {
        drain.submit(() -> fail(cause));
    }

    // ---- upstream signals ------------------------------------------------------------------

    @Override
    public void onSubscribe(Subscription subscription) {
        Objects.requireNonNull(subscription, "§2.13: subscription must not be null");
        drain.submit(() -> {
            if (upstream != null || state != State.RUNNING) {
                subscription.cancel(); // §2.5: one subscription; or already ending
                return;
            }
            upstream = subscription;
            pump();
        });
    }

    @Override
    public void onNext(ByteBuffer item) {
        if (item == null) {
            NullPointerException npe = new NullPointerException("§2.13: onNext item must not be null");
            drain.submit(() -> fail(npe));
            throw npe;
        }
        drain.submit(() -> {
            if (state != State.RUNNING) {
                release(item); // O6: arrived after cancel (§2.8)
                return;
            }
            if (!requested) {
                release(item);
                fail(new IllegalStateException("§1.1: onNext without demand: the upload had requested nothing"));
                return;
            }
            requested = false;
            received += item.remaining();
            if (declaredLength >= 0 && received > declaredLength) {
                release(item);
                fail(new ObjectUploadException(
                        declaredBy != null
                                ? "the file " + declaredBy + " was longer than " + declaredLength
                                        + " bytes, its size when the upload started"
                                : "body longer than declared: more than " + declaredLength + " bytes",
                        bucket,
                        key,
                        uploadId,
                        null));
                return;
            }
            held = item;
            pump();
        });
    }

    @Override
    public void onError(Throwable error) {
        Throwable cause = error != null ? error : new NullPointerException("§2.13: onError throwable must not be null");
        drain.submit(() -> {
            upstreamDone = true; // §2.4: terminated, nothing to cancel
            fail(cause);
        });
        if (error == null) {
            throw (NullPointerException) cause;
        }
    }

    @Override
    public void onComplete() {
        drain.submit(() -> {
            upstreamDone = true;
            if (state == State.RUNNING) {
                pump();
            }
        });
    }

    // ---- one pass: copy, start parts, request, finish ------------------------------------

    private void pump() {
        if (state != State.RUNNING) {
            return;
        }
        if (fileRanges != null) {
            startFileParts();
            return;
        }
        while (held != null) {
            if (assembling != null && assembling.isFull()) {
                seal();
                continue;
            }
            if (assembling == null) {
                if (!mayTakePart()) {
                    break; // O1: wait for a part to finish
                }
                assembling = new Part(partSizeBytes, checksums);
            }
            assembling.fill(held, buffers); // O1: blocks taken only for bytes that arrived
            if (!held.hasRemaining()) {
                release(held); // O6
                held = null;
            }
        }
        startParts();
        retainedBytes = buffers.retainedBytes();
        if (state != State.RUNNING) {
            return;
        }
        if (upstreamDone) {
            if (held == null) {
                finish();
            }
        } else if (held == null && !requested && upstream != null && hasRoom()) {
            requested = true;
            upstream.request(1); // O2, O3
        }
    }

    private boolean hasRoom() {
        return assembling == null ? mayTakePart() : !assembling.isFull() || mayTakePart();
    }

    private boolean mayTakePart() {
        int inUse = partsRunning + sealed.size() + (assembling != null ? 1 : 0);
        return inUse < partsInFlight + 1; // O1
    }

    private void seal() {
        sealed.add(assembling);
        assembling = null;
        partsSealed++;
        partSizeBytes = partSizes.sizeOf(partsSealed + 1); // O7: the next part's, never smaller
    }

    private void startParts() {
        if (sealed.isEmpty()) {
            return;
        }
        if (uploadId == null) {
            if (!creating) {
                createUpload();
            }
            return;
        }
        while (!sealed.isEmpty() && partsRunning < partsInFlight && state == State.RUNNING) {
            if (nextPartNumber > maxParts) {
                fail(new ObjectUploadException(
                        "the body outgrew S3's limit of " + maxParts + " parts, with parts of "
                                + partSizes.firstBytes() + " growing to at most " + partSizes.maxBytes()
                                + " bytes; declare its length or allow larger parts",
                        bucket,
                        key,
                        uploadId,
                        null));
                return;
            }
            uploadPart(sealed.poll(), nextPartNumber++);
        }
    }

    private void createUpload() {
        creating = true;
        AnswerDeadline.watch(
                        () -> client.createMultipartUpload(request -> request.bucket(bucket)
                                .key(key)
                                .checksumAlgorithm(checksums ? ChecksumAlgorithm.CRC32_C : null)), // O11
                        answerTimeout,
                        () -> timedOut("CreateMultipartUpload")) // O9
                .whenComplete((response, error) -> drain.submit(() -> {
                    creating = false;
                    if (error != null) {
                        fail(error);
                    } else {
                        uploadId = response.uploadId();
                    }
                    if (state == State.RUNNING) {
                        pump();
                    } else {
                        abortWhenQuiet();
                    }
                }));
    }

    private void uploadPart(Part part, int number) {
        partsRunning++;
        String checksum = part.checksumCrc32c(); // O11: null sends none
        // Sent from the blocks themselves: neither changed nor reused until the call has ended, and
        // no longer reachable from the request once it has (AnswerDeadline's L4).
        sendPart(
                number,
                part.length(),
                part.body(),
                checksum,
                false,
                () -> checksum,
                () -> part.release(buffers),
                error -> error);
    }

    /**
     * O12: while fewer than k ranges are being made or in flight, takes the file's next range; once
     * every range was sent and none is left, completes. A range's body is made on a file system
     * thread (it looks at the file), then sent from the drain.
     */
    private void startFileParts() {
        if (uploadId == null) {
            if (!creating) {
                createUpload();
            }
            return;
        }
        while (partsRunning + rangesBeingMade < partsInFlight && fileRanges.hasNext() && state == State.RUNNING) {
            int number = nextPartNumber++;
            FileRanges.Range range = fileRanges.next(partSizeBytes);
            String id = uploadId;
            rangesBeingMade++;
            try {
                rangeExecutor.execute(() -> {
                    FileBody body = null;
                    Throwable error = null;
                    try {
                        body = range.body(bucket, key, id, checksums);
                    } catch (UncheckedIOException e) {
                        error = e.getCause(); // as a file put reports it (a file removed: NoSuchFileException)
                    } catch (Throwable e) { // whatever ends the task, the range is given back to the drain
                        error = e;
                    }
                    FileBody made = body;
                    Throwable failed = error;
                    drain.submit(() -> sendFilePart(number, range.length(), made, failed));
                });
            } catch (RuntimeException e) { // refused (a user's executor, or no thread could be made)
                rangesBeingMade--;
                fail(e);
                return;
            }
        }
        if (state == State.RUNNING && !fileRanges.hasNext() && rangesBeingMade == 0 && partsRunning == 0) {
            completeUpload();
        }
    }

    /** A range's body is made, or could not be: sent if the upload still runs (O12). */
    private void sendFilePart(int number, long length, FileBody body, Throwable error) {
        rangesBeingMade--;
        if (state != State.RUNNING) {
            return; // the upload ended meanwhile (O4 did not wait for this one): it is never sent
        }
        if (error != null) {
            fail(error);
            return;
        }
        partsRunning++;
        // O11, O12: the SDK computes the CRC32C as it sends and carries it in its trailer; the body
        // computes the same from the same reads (FileBody's V5) for the complete.
        sendPart(number, length, body, null, checksums, body::sentChecksumCrc32c, () -> {}, body::refusal);
    }

    /**
     * Sends part {@code number}, counted in {@code partsRunning} by the caller: with {@code checksum}
     * in its header, or none, or with {@code trailer} one the SDK computes as it sends (O11);
     * {@code completedChecksum} names the part's in the complete, {@code ended} runs once the call
     * has ended, and {@code reason} gives a failure the body's own cause where it has one.
     */
    private void sendPart(
            int number,
            long length,
            AsyncRequestBody body,
            String checksum,
            boolean trailer,
            Supplier<String> completedChecksum,
            Runnable ended,
            UnaryOperator<Throwable> reason) {
        AnswerDeadline.watch(
                        requestBody -> client.uploadPart(
                                request -> request.bucket(bucket)
                                        .key(key)
                                        .uploadId(uploadId)
                                        .partNumber(number)
                                        .contentLength(length)
                                        .checksumCRC32C(checksum) // O11
                                        .checksumAlgorithm(trailer ? ChecksumAlgorithm.CRC32_C : null),
                                requestBody),
                        body,
                        answerTimeout,
                        () -> timedOut("UploadPart " + number)) // O9
                .whenComplete((response, error) -> drain.submit(() -> {
                    partsRunning--;
                    ended.run();
                    if (error != null) {
                        fail(reason.apply(error));
                    } else if (state == State.RUNNING) {
                        completedParts.add(CompletedPart.builder()
                                .partNumber(number)
                                .eTag(response.eTag())
                                .checksumCRC32C(completedChecksum.get()) // O11
                                .build());
                    }
                    if (state == State.RUNNING) {
                        pump();
                    } else {
                        abortWhenQuiet();
                    }
                }));
    }

    /** Upstream is done and every byte copied: put the body, or finish the multipart upload. */
    private void finish() {
        if (committing) {
            return;
        }
        if (declaredLength >= 0 && received != declaredLength) {
            fail(new ObjectUploadException(
                    declaredBy != null
                            ? "the file " + declaredBy + " was shorter than " + declaredLength
                                    + " bytes, its size when the upload started: " + received + " bytes read"
                            : "body shorter than declared: " + received + " of " + declaredLength + " bytes",
                    bucket,
                    key,
                    uploadId,
                    null));
            return;
        }
        boolean multipart = uploadId != null || creating || !sealed.isEmpty();
        if (!multipart) {
            putSingle();
            return;
        }
        if (assembling != null && assembling.length() > 0) {
            seal(); // the last part, the only one that may be smaller
            startParts();
        }
        if (state == State.RUNNING && uploadId != null && sealed.isEmpty() && partsRunning == 0) {
            completeUpload();
        }
    }

    private void putSingle() {
        if (!result.enterCommit()) {
            return; // O5, U2: an outside completion won; its abort event follows
        }
        committing = true;
        Part body = assembling != null ? assembling : new Part(0, checksums);
        long length = body.length();
        String checksum = body.checksumCrc32c(); // O11: null sends none
        AnswerDeadline.watch(
                        requestBody -> client.putObject(
                                request -> request.bucket(bucket)
                                        .key(key)
                                        .contentLength(length)
                                        .checksumCRC32C(checksum),
                                requestBody),
                        body.body(),
                        answerTimeout,
                        () -> timedOut("PutObject")) // O9
                .whenComplete((response, error) -> drain.submit(() -> {
                    end();
                    if (error != null) {
                        result.fail(unwrap(error)); // nothing to abort: the object was stored whole or not at all
                    } else {
                        result.succeed(new UploadResult(length, response.eTag(), 1));
                    }
                }));
    }

    private void sendFile(FileBody body) {
        if (state != State.RUNNING) {
            return; // an outside completion came first and has ended the upload: nothing was sent
        }
        long length = body.length();
        AnswerDeadline.watch(
                        requestBody -> {
                            filePut = client.putObject(
                                    request -> request.bucket(bucket).key(key).contentLength(length), requestBody);
                            return filePut;
                        },
                        body,
                        answerTimeout,
                        () -> timedOut("PutObject")) // O9
                .whenComplete((response, error) -> drain.submit(() -> {
                    filePut = null;
                    if (state != State.RUNNING) {
                        abortWhenQuiet(); // O10: an outside completion won; the call ended without the last byte
                    } else if (error == null) {
                        end();
                        result.succeed(new UploadResult(length, response.eTag(), 1));
                    } else if (body.committed()) {
                        end();
                        result.fail(unwrap(body.refusal(error))); // U2: past the point of no return
                    } else {
                        fail(body.refusal(error)); // the file's own reason (it names the file), if it refused
                    }
                }));
    }

    private void completeUpload() {
        if (!result.enterCommit()) {
            return; // O5, U2
        }
        committing = true;
        completedParts.sort(Comparator.comparingInt(CompletedPart::partNumber));
        List<CompletedPart> parts = List.copyOf(completedParts);
        AnswerDeadline.watch(
                        () -> client.completeMultipartUpload(request -> request.bucket(bucket)
                                .key(key)
                                .uploadId(uploadId)
                                .multipartUpload(upload -> upload.parts(parts))),
                        answerTimeout,
                        () -> timedOut("CompleteMultipartUpload")) // O9
                .whenComplete((response, error) -> drain.submit(() -> {
                    if (error != null) {
                        fail(error); // the object did not appear: abort the parts
                    } else {
                        end();
                        result.succeed(new UploadResult(received, response.eTag(), parts.size()));
                    }
                }));
    }

    // ---- failure and abort (O4) ------------------------------------------------------------

    /** Starts failing with {@code cause}, unless the upload is already failing or done. */
    private void fail(Throwable cause) {
        if (state != State.RUNNING) {
            return;
        }
        state = State.ABORTING;
        failure = unwrap(cause);
        if (upstream != null && !upstreamDone) {
            upstream.cancel(); // O3, O4
        }
        upstreamDone = true;
        if (held != null) {
            release(held); // O6
            held = null;
        }
        abortWhenQuiet();
    }

    private void abortFromOutside(Runnable completion) {
        if (state == State.DONE) {
            completion.run();
            return;
        }
        outsideCompletion = completion;
        fail(new CancellationException("upload of s3://" + bucket + "/" + key + " completed from outside"));
        if (filePut != null) {
            filePut.cancel(true); // O10: the claim is outside's, so the last byte never went: no object
        }
        abortWhenQuiet();
    }

    private void abortWhenQuiet() {
        if (state != State.ABORTING || creating || partsRunning > 0 || filePut != null || abortSent) {
            return; // O4: wait for what is in flight
        }
        if (uploadId == null) {
            concludeFailure(null);
            return;
        }
        abortSent = true;
        AnswerDeadline.watch(
                        () -> client.abortMultipartUpload(
                                request -> request.bucket(bucket).key(key).uploadId(uploadId)),
                        answerTimeout,
                        () -> timedOut("AbortMultipartUpload")) // O9: unanswered counts as failed (O8)
                .whenComplete((response, error) -> drain.submit(() -> concludeFailure(
                        unwrap(error) instanceof NoSuchUploadException ? null : error))); // gone already: nothing left
    }

    private ObjectUploadTimeoutException timedOut(String request) {
        return new ObjectUploadTimeoutException(bucket, key, uploadId, request, answerTimeout);
    }

    private void concludeFailure(Throwable abortError) {
        end();
        if (abortError != null) {
            AbortRetries.Retrying started = abortRetries.start(client, bucket, key, uploadId, answerTimeout);
            retrying = started; // O8: the stage does not wait for it
            failure.addSuppressed(new ObjectUploadException(
                    "the abort failed, so the parts are still stored; it is"
                            + " retried in the background for up to "
                            + AbortRetries.describe(abortRetries.giveUpAfter())
                            + " (see abortOutcome()). If the upload is still listed after that, abort it by this id (a bucket"
                            + " lifecycle rule AbortIncompleteMultipartUpload removes it eventually)",
                    bucket,
                    key,
                    uploadId,
                    unwrap(abortError),
                    started.outcome().minimalCompletionStage()));
        }
        if (outsideCompletion != null) {
            outsideCompletion.run(); // U1: the stage completes as its caller asked
        } else {
            result.fail(failure);
        }
    }

    private void end() {
        state = State.DONE;
        sealed.clear();
        assembling = null;
        buffers.clear(); // no call reads a block any more (O4: all have ended)
        retainedBytes = 0;
    }

    private static void release(ByteBuffer item) {
        if (ChunkPool.isLent(item)) {
            ChunkPool.giveBack(item);
        }
    }

    static Throwable unwrap(Throwable error) {
        while (error instanceof CompletionException && error.getCause() != null) {
            error = error.getCause();
        }
        return error;
    }

    @Override
    public String toString() {
        return "ObjectUpload[s3://" + bucket + "/" + key + "]";
    }
}
