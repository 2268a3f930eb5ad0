package io.sluice.s3;

import java.time.Duration;
import java.util.Objects;

/**
 * How {@link ReactiveObject} reads an object: how long a read may go without a byte while its
 * subscriber waits for one, and which version of the object it may read. Immutable; the
 * {@code with*} methods return new options.
 *
 * <p><b>Why an idle timeout:</b> a server that stops sending in the middle of a body without
 * closing the connection may never be signalled by the SDK's Netty client (no error, no
 * completion), so without it such a read waits for ever. The watchdog is driven by demand: it
 * runs only while the subscriber has requested bytes that have not arrived, so a slow subscriber,
 * which holds the stream back by not requesting, never trips it.
 *
 * <p><b>Threading:</b> immutable and thread-safe; one instance may serve any number of reads. The
 * watchdog runs on sluice's own timer threads ({@code sluice-timer}, {@code sluice-timeout-N}),
 * never on the SDK's or the caller's.
 */
public final class ObjectReadOptions {

    /** The default idle timeout: 60 s. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(60);

    private static final ObjectReadOptions DEFAULTS = new ObjectReadOptions(DEFAULT_IDLE_TIMEOUT, null);

    private final Duration idleTimeout; // Duration.ZERO: no watchdog
    private final String ifMatch; // the ETag the object must have; null: any version

    private ObjectReadOptions(Duration idleTimeout, String ifMatch) {
        this.idleTimeout = idleTimeout;
        this.ifMatch = ifMatch;
    }

    /**
     * The defaults: an idle timeout of 60 s. On by default because the stall it ends otherwise lasts
     * for ever, and 60 s is far longer than any pause of a working server in the middle of a body.
     *
     * @return the default options
     */
    public static ObjectReadOptions defaults() {
        return DEFAULTS;
    }

    /**
     * Sets the idle timeout: if no byte arrives for this long while the subscriber has requested
     * some (the response's headers count: the wait for them starts at the first request), the read
     * cancels the SDK's stream, which releases its connection, and ends with an
     * {@link ObjectReadTimeoutException} naming the bucket, the key and this time.
     *
     * @param timeout positive
     * @return new options with that timeout
     * @throws NullPointerException if {@code timeout} is {@code null}
     * @throws IllegalArgumentException if {@code timeout} is zero or negative
     */
    public ObjectReadOptions withIdleTimeout(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException(
                    "idle timeout must be positive, was " + timeout + "; withoutIdleTimeout() turns it off");
        }
        return new ObjectReadOptions(timeout, ifMatch);
    }

    /**
     * Turns the idle timeout off: a stalled server then holds the read until the subscriber cancels
     * it (a timeout of the caller's, such as {@code orTimeout} on a download's stage).
     *
     * @return new options without an idle timeout
     */
    public ObjectReadOptions withoutIdleTimeout() {
        return new ObjectReadOptions(Duration.ZERO, ifMatch);
    }

    /**
     * Reads only the version of the object whose ETag is {@code eTag} ({@code If-Match}): a read
     * that pairs a length learnt from {@code HeadObject} with the bytes of a later {@code GetObject}
     * (a server answering a ranged download, say) cannot get the bytes of an object replaced in
     * between. If the object's ETag differs, the read fails before its first byte with the SDK's
     * {@code S3Exception} of status 412 (Precondition Failed).
     *
     * @param eTag the ETag as the server gave it (quoted, as {@code HeadObject} returns it)
     * @return new options that read that version only
     * @throws NullPointerException if {@code eTag} is {@code null}
     */
    public ObjectReadOptions withIfMatch(String eTag) {
        return new ObjectReadOptions(idleTimeout, Objects.requireNonNull(eTag, "eTag"));
    }

    /**
     * The ETag the object must have for the read to go ahead.
     *
     * @return the ETag, or {@code null} if any version is read
     */
    public String ifMatch() {
        return ifMatch;
    }

    /**
     * The idle timeout.
     *
     * @return the idle timeout, or {@link Duration#ZERO} if there is none
     */
    public Duration idleTimeout() {
        return idleTimeout;
    }

    @Override
    public String toString() {
        return "ObjectReadOptions[idleTimeout=" + (idleTimeout.isZero() ? "none" : idleTimeout)
                + (ifMatch == null ? "" : ", ifMatch=" + ifMatch) + "]";
    }
}
