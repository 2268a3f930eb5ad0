package io.sluice.s3.internal;

import io.sluice.internal.SluiceTimer;
import io.sluice.s3.ObjectUploadException;
import io.sluice.s3.ObjectUploadTimeoutException;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.NoSuchUploadException;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How an {@code AbortMultipartUpload} that failed is retried in the background, after the upload's
 * stage has completed: the first retry {@code firstDelay} after the failure, each delay after it
 * doubled up to {@code maxDelay}, and no retry started later than {@code giveUpAfter} after the
 * failure. Immutable and shared; {@link #start} creates one upload's retries.
 *
 * <p>Invariants:
 * <ul>
 *   <li>T1 (serial): one attempt at a time; the next is scheduled only from the end of the one before,
 *       so an attempt's fields are published to the next by the timer's and the SDK's hand-offs.</li>
 *   <li>T2 (threads): waits run on core's {@link SluiceTimer}; each attempt is started on a
 *       {@code sluice-timeout-N} thread (starting an SDK call may resolve credentials, which may
 *       block), never on the timer thread or an SDK event loop. When the retries end nothing of
 *       theirs is scheduled, and those threads end after their idle time.</li>
 *   <li>T3 (end): the outcome completes normally once an abort succeeds or the server no longer knows
 *       the upload ({@code NoSuchUpload}: aborted already), exceptionally once no retry may start any
 *       more, with an {@link ObjectUploadException} naming the upload left stored (cause: the last
 *       failure), also logged as a {@code WARNING} so that an operator can abort it. Each attempt's
 *       answer is bounded by the upload's answer timeout ({@link AnswerDeadline}), so an attempt that
 *       is never answered cannot hold the retries. Daemon threads: a JVM that exits ends the retries.</li>
 * </ul>
 */
public final class AbortRetries {

    private static final System.Logger LOG = System.getLogger("io.sluice.s3");

    /** 1 s, doubling to 30 s, for 5 minutes: covers a server restart, bounded so nothing lingers. */
    public static final AbortRetries DEFAULT =
            new AbortRetries(Duration.ofSeconds(1), Duration.ofSeconds(30), Duration.ofMinutes(5));

    private final Duration firstDelay;
    private final Duration maxDelay;
    private final Duration giveUpAfter;

    /**
     * A schedule (tests use milliseconds).
     *
     * @param firstDelay the wait before the first retry
     * @param maxDelay the longest wait between retries
     * @param giveUpAfter how long after the first failure a retry may still start
     */
    public AbortRetries(Duration firstDelay, Duration maxDelay, Duration giveUpAfter) {
        this.firstDelay = firstDelay;
        this.maxDelay = maxDelay;
        this.giveUpAfter = giveUpAfter;
    }

    /** How long after the first failure a retry may still start. */
    public Duration giveUpAfter() {
        return giveUpAfter;
    }

    /** {@code duration} for a message: whole minutes or seconds where it is one, else milliseconds. */
    public static String describe(Duration duration) {
        if (duration.toSeconds() % 60 == 0 && duration.toMinutes() > 0 && duration.toNanos() % 1_000_000_000L == 0) {
            return duration.toMinutes() + (duration.toMinutes() == 1 ? " minute" : " minutes");
        }
        if (duration.toNanos() % 1_000_000_000L == 0) {
            return duration.toSeconds() + (duration.toSeconds() == 1 ? " second" : " seconds");
        }
        return duration.toMillis() + " ms";
    }

    /**
     * Starts retrying the abort of {@code uploadId}, whose first abort has just failed, waiting at most
     * {@code answerTimeout} for each attempt's answer.
     */
    public Retrying start(S3AsyncClient client, String bucket, String key, String uploadId, Duration answerTimeout) {
        Retrying retrying =
                new Retrying(client, bucket, key, uploadId, answerTimeout, System.nanoTime() + giveUpAfter.toNanos());
        retrying.schedule(firstDelay.toNanos());
        return retrying;
    }

    /** One upload's retries. */
    public final class Retrying {

        private final S3AsyncClient client;
        private final String bucket;
        private final String key;
        private final String uploadId;
        private final Duration answerTimeout; // the longest wait for one attempt's answer
        private final long deadlineNanos; // no attempt starts after it
        private final CompletableFuture<Void> outcome = new CompletableFuture<>(); // T3
        private final AtomicInteger attempts = new AtomicInteger(); // retries started (tests)
        private long nextDelayNanos; // one attempt at a time (T1)

        private Retrying(
                S3AsyncClient client,
                String bucket,
                String key,
                String uploadId,
                Duration answerTimeout,
                long deadlineNanos) {
            this.client = client;
            this.bucket = bucket;
            this.key = key;
            this.uploadId = uploadId;
            this.answerTimeout = answerTimeout;
            this.deadlineNanos = deadlineNanos;
        }

        /** Completes once the upload is aborted, or exceptionally, naming the upload, once the retries gave up (T3). */
        public CompletableFuture<Void> outcome() {
            return outcome;
        }

        /** Retries started so far. */
        public int attempts() {
            return attempts.get();
        }

        private void schedule(long delayNanos) {
            nextDelayNanos = Math.min(delayNanos * 2, maxDelay.toNanos());
            SluiceTimer.schedule(() -> SluiceTimer.runMayBlock(this::attempt), delayNanos); // T2
        }

        private void attempt() {
            attempts.incrementAndGet();
            CompletableFuture<?> call;
            try {
                call = AnswerDeadline.watch(
                        () -> client.abortMultipartUpload(
                                request -> request.bucket(bucket).key(key).uploadId(uploadId)),
                        answerTimeout,
                        () -> new ObjectUploadTimeoutException(
                                bucket, key, uploadId, "AbortMultipartUpload", answerTimeout));
            } catch (Throwable closedClient) {
                call = CompletableFuture.failedFuture(closedClient);
            }
            call.whenComplete((response, error) -> {
                Throwable cause = error == null ? null : ObjectUpload.unwrap(error);
                if (cause == null || cause instanceof NoSuchUploadException) {
                    outcome.complete(null); // T3: aborted, now or before
                } else if (System.nanoTime() + nextDelayNanos > deadlineNanos) {
                    giveUp(cause); // T3: nothing left scheduled
                } else {
                    schedule(nextDelayNanos); // T1: from the end of this attempt
                }
            });
        }

        private void giveUp(Throwable cause) {
            ObjectUploadException left = new ObjectUploadException(
                    "the abort was retried for "
                            + giveUpAfter.toMillis()
                            + " ms and failed every time: the upload and its parts are still stored;"
                            + " abort it by this id, or let a bucket lifecycle rule AbortIncompleteMultipartUpload remove it",
                    bucket,
                    key,
                    uploadId,
                    cause);
            LOG.log(Level.WARNING, left.getMessage(), cause);
            outcome.completeExceptionally(left);
        }
    }
}
