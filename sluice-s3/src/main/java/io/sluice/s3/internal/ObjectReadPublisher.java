package io.sluice.s3.internal;

import io.sluice.BytePublisher;
import io.sluice.internal.SluiceTimer;
import io.sluice.s3.ObjectReadOptions;
import io.sluice.s3.ObjectReadTimeoutException;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.core.async.ResponsePublisher;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;

/**
 * An object, or a range of it, as a cold {@link BytePublisher}: each subscription sends its own
 * {@code GetObject}, on its first {@code request}, and passes on the body the SDK's
 * {@link AsyncResponseTransformer#toPublisher()} publishes.
 *
 * <p>Invariants:
 * <ul>
 *   <li>B1 (§1.3): every signal to the subscriber, {@code onSubscribe} included, is an event on the
 *       subscription's {@link SerialEvents}, so signals never overlap, whichever thread (the subscriber's,
 *       an SDK event loop, the SDK's completion executor) causes them.</li>
 *   <li>B2 (demand): downstream demand is passed to the SDK's body publisher as it is; before that
 *       publisher exists it is summed (capped at {@code Long.MAX_VALUE}, §3.17). The SDK's Netty
 *       client reads from the connection only against that demand, so nothing is buffered ahead.</li>
 *   <li>B3 (resources): nothing is sent before the first request. A cancel cancels the body's
 *       subscription (which closes the HTTP stream), or the response future if no body came yet,
 *       and a body that arrives after a cancel is subscribed to and cancelled at once.</li>
 *   <li>B4 (verification): a whole-object read whose ETag is an MD5 (a single-part upload, without
 *       KMS or customer keys) ends with {@code onError} instead of {@code onComplete} if the bytes'
 *       MD5 or count differ from the response's; any read ends so if the count differs from its
 *       {@code Content-Length}. So a writer that commits on {@code onComplete} (the core's atomic
 *       replace) never commits a corrupt download.</li>
 *   <li>B5 (idle watchdog): while downstream has requested bytes that have not arrived
 *       ({@code outstanding > 0}), a read that gets nothing for {@code idleTimeout} (measured from
 *       the last item, or from the moment demand became outstanding; the response's headers are
 *       waited for under it too) cancels the SDK's stream (B3) and ends with an
 *       {@link ObjectReadTimeoutException}. With nothing outstanding the watchdog is off: a slow
 *       subscriber never trips it. At most one check is scheduled, on sluice's timer, and it runs
 *       as a drain event handed to a {@code sluice-timeout-N} thread, never the timer thread, because
 *       it may call the subscriber; it re-arms itself for the time left instead of being moved on
 *       every item, and is cancelled when the read ends, so an ended read leaves nothing scheduled.</li>
 * </ul>
 */
public final class ObjectReadPublisher implements BytePublisher {

    private final S3AsyncClient client;
    private final String bucket;
    private final String key;
    private final String range; // an HTTP Range value, or null for the whole object
    private final Duration idleTimeout; // B5; Duration.ZERO: no watchdog
    private final String ifMatch; // the ETag the object must have, or null for any version

    /**
     * Describes a read; nothing is sent before a subscriber requests.
     *
     * @param client the SDK client
     * @param bucket the bucket
     * @param key the key
     * @param range an HTTP {@code Range} value ({@code bytes=0-99}), or {@code null} for the whole object
     * @param options the idle timeout (B5; {@link Duration#ZERO} for ever) and the ETag the object must have
     */
    public ObjectReadPublisher(
            S3AsyncClient client, String bucket, String key, String range, ObjectReadOptions options) {
        this.client = Objects.requireNonNull(client, "client");
        this.bucket = Objects.requireNonNull(bucket, "bucket");
        this.key = Objects.requireNonNull(key, "key");
        this.range = range;
        this.idleTimeout = options.idleTimeout();
        this.ifMatch = options.ifMatch();
    }

    @Override
    public void subscribe(Subscriber<? super ByteBuffer> subscriber) {
        Objects.requireNonNull(subscriber, "§1.9: subscriber must not be null");
        new ObjectReadSubscription(subscriber).start();
    }

    @Override
    public String toString() {
        return "ObjectReadPublisher[s3://" + bucket + "/" + key + (range != null ? ", " + range : "") + "]";
    }

    /** One subscriber's read; every field is drain-confined (B1). */
    private final class ObjectReadSubscription implements Subscription {

        private Subscriber<? super ByteBuffer> downstream; // drain-confined; null once done (§3.13)
        private final SerialEvents drain = new SerialEvents(this::failFromBug); // B1
        private long pendingDemand; // drain-confined: requested before the body publisher came (B2)
        private boolean started; // drain-confined: GetObject sent (B3)
        private boolean done; // drain-confined: terminal signal sent or cancelled
        private CompletableFuture<ResponsePublisher<GetObjectResponse>> call; // drain-confined
        private Subscription body; // drain-confined: the SDK body publisher's subscription
        private MessageDigest md5; // drain-confined: null if the ETag is not an MD5 (B4)
        private String expectedMd5; // drain-confined
        private long expectedBytes = -1; // drain-confined: Content-Length
        private long receivedBytes; // drain-confined
        private long outstanding; // drain-confined: items requested, not yet delivered (B5, §3.17 capped)
        private long lastProgressNanos; // drain-confined: last item, or when demand became outstanding (B5)
        private ScheduledFuture<?> watchdog; // drain-confined: the pending idle check, null if none (B5)

        ObjectReadSubscription(Subscriber<? super ByteBuffer> downstream) {
            this.downstream = downstream;
        }

        void start() {
            drain.submit(() -> downstream.onSubscribe(this)); // B1: even onSubscribe
        }

        @Override
        public void request(long n) {
            drain.submit(() -> {
                if (done) {
                    return; // §3.6
                }
                if (n <= 0) {
                    cancelQuietly();
                    terminate(new IllegalArgumentException("§3.9: request(" + n + ") must be positive"));
                    return;
                }
                if (outstanding == 0) {
                    lastProgressNanos = System.nanoTime(); // B5: the wait starts now
                }
                outstanding = outstanding + n < 0 ? Long.MAX_VALUE : outstanding + n; // §3.17
                armWatchdog(idleTimeout.toNanos());
                if (body != null) {
                    body.request(n); // B2
                    return;
                }
                pendingDemand = pendingDemand + n < 0 ? Long.MAX_VALUE : pendingDemand + n; // §3.17
                if (!started) {
                    started = true;
                    send();
                }
            });
        }

        @Override
        public void cancel() {
            drain.submit(() -> {
                if (!done) {
                    done = true; // §3.7: later cancels do nothing
                    downstream = null; // §3.13
                    cancelQuietly();
                    disarmWatchdog();
                }
            });
        }

        private void send() {
            call = client.getObject(
                    request -> request.bucket(bucket).key(key).range(range).ifMatch(ifMatch),
                    AsyncResponseTransformer.toPublisher());
            call.whenComplete((publisher, error) -> drain.submit(() -> {
                if (error != null) {
                    if (!done) {
                        terminate(ObjectUpload.unwrap(error)); // NoSuchKeyException, NoSuchBucketException, ...
                    }
                    return;
                }
                if (done) {
                    publisher.subscribe(new CancellingSubscriber()); // B3: close the stream
                    return;
                }
                GetObjectResponse response = publisher.response();
                prepareVerification(response);
                publisher.subscribe(new BodySubscriber());
            }));
        }

        private void prepareVerification(GetObjectResponse response) {
            expectedBytes = response.contentLength() != null ? response.contentLength() : -1;
            String eTag = response.eTag() == null
                    ? ""
                    : response.eTag().replace("\"", "").toLowerCase(Locale.ROOT);
            boolean plainMd5 = range == null
                    && eTag.matches("[0-9a-f]{32}")
                    && response.sseCustomerAlgorithm() == null
                    && (response.serverSideEncryption() == null
                            || "AES256".equals(response.serverSideEncryptionAsString()));
            if (plainMd5) {
                try {
                    md5 = MessageDigest.getInstance("MD5");
                    expectedMd5 = eTag;
                } catch (NoSuchAlgorithmException e) {
                    md5 = null; // a JDK without MD5: the byte count is still checked
                }
            }
        }

        /** B5: schedules the one idle check, unless it is off or one is pending. */
        private void armWatchdog(long delayNanos) {
            if (idleTimeout.isZero() || watchdog != null || done) {
                return;
            }
            watchdog = SluiceTimer.schedule(
                    () -> SluiceTimer.runMayBlock(() -> drain.submit(this::checkIdle)), delayNanos);
        }

        private void disarmWatchdog() {
            if (watchdog != null) {
                watchdog.cancel(false);
                watchdog = null;
            }
        }

        /** B5: the check, as a drain event: fails the read, re-arms for the time left, or lets demand re-arm it. */
        private void checkIdle() {
            watchdog = null;
            if (done || outstanding == 0) {
                return; // ended, or a slow subscriber: the next request re-arms
            }
            long idleNanos = System.nanoTime() - lastProgressNanos;
            long leftNanos = idleTimeout.toNanos() - idleNanos;
            if (leftNanos > 0) {
                armWatchdog(leftNanos);
                return;
            }
            cancelQuietly(); // B3: closes the HTTP stream, releasing its connection
            terminate(new ObjectReadTimeoutException(bucket, key, idleTimeout));
        }

        private void cancelQuietly() {
            if (body != null) {
                body.cancel(); // B3: closes the HTTP stream
            } else if (call != null) {
                call.cancel(true);
            }
        }

        private void terminate(Throwable error) {
            Subscriber<? super ByteBuffer> last = downstream;
            done = true;
            downstream = null; // §3.13
            disarmWatchdog();
            last.onError(error);
        }

        private void failFromBug(Throwable bug) {
            if (!done) {
                Subscriber<? super ByteBuffer> last = downstream;
                done = true;
                downstream = null;
                cancelQuietly();
                disarmWatchdog();
                try {
                    last.onError(bug);
                } catch (Throwable ignored) {
                    // §2.13: the subscriber broke the contract; nothing else to tell
                }
            }
        }

        /** Receives the SDK's body; turns each signal into a drain event (B1). */
        private final class BodySubscriber implements Subscriber<ByteBuffer> {

            @Override
            public void onSubscribe(Subscription subscription) {
                drain.submit(() -> {
                    if (done || body != null) {
                        subscription.cancel(); // B3, §2.5
                        return;
                    }
                    body = subscription;
                    if (pendingDemand > 0) {
                        long demand = pendingDemand;
                        pendingDemand = 0;
                        subscription.request(demand);
                    }
                });
            }

            @Override
            public void onNext(ByteBuffer item) {
                drain.submit(() -> {
                    if (done) {
                        return;
                    }
                    receivedBytes += item.remaining();
                    if (outstanding != Long.MAX_VALUE) {
                        outstanding--; // B5; Long.MAX_VALUE is unbounded (§3.17)
                    }
                    lastProgressNanos = System.nanoTime();
                    if (md5 != null) {
                        md5.update(item.duplicate());
                    }
                    downstream.onNext(item);
                });
            }

            @Override
            public void onError(Throwable error) {
                drain.submit(() -> {
                    if (!done) {
                        terminate(ObjectUpload.unwrap(error));
                    }
                });
            }

            @Override
            public void onComplete() {
                drain.submit(() -> {
                    if (done) {
                        return;
                    }
                    String mismatch = mismatch();
                    if (mismatch != null) {
                        terminate(new IOException(mismatch)); // B4
                    } else {
                        Subscriber<? super ByteBuffer> last = downstream;
                        done = true;
                        downstream = null; // §3.13
                        disarmWatchdog();
                        last.onComplete();
                    }
                });
            }

            private String mismatch() {
                if (expectedBytes >= 0 && receivedBytes != expectedBytes) {
                    return "s3://" + bucket + "/" + key + ": received " + receivedBytes + " bytes, Content-Length was "
                            + expectedBytes;
                }
                if (md5 != null) {
                    String actual = HexFormat.of().formatHex(md5.digest());
                    if (!actual.equals(expectedMd5)) {
                        return "s3://" + bucket + "/" + key + ": MD5 of the bytes received is " + actual
                                + ", the ETag is " + expectedMd5;
                    }
                }
                return null;
            }
        }
    }

    /** Subscribes to a body nobody wants any more, to close its stream. */
    private static final class CancellingSubscriber implements Subscriber<ByteBuffer> {
        @Override
        public void onSubscribe(Subscription subscription) {
            subscription.cancel();
        }

        @Override
        public void onNext(ByteBuffer item) {}

        @Override
        public void onError(Throwable error) {}

        @Override
        public void onComplete() {}
    }
}
