package io.sluice.s3;

import java.io.IOException;
import java.time.Duration;

/**
 * A read of an object that received no byte for its {@linkplain ObjectReadOptions#withIdleTimeout
 * idle timeout} while its subscriber was waiting for some: the server stopped sending without
 * closing the connection, or the network lost it silently. The read's HTTP stream was cancelled.
 */
public final class ObjectReadTimeoutException extends IOException {

    private static final long serialVersionUID = 1L;

    /** The bucket read. */
    private final String bucket;
    /** The key read. */
    private final String key;
    /** How long the read went without a byte. */
    private final Duration idleTimeout;

    /**
     * Creates the exception.
     *
     * @param bucket the bucket
     * @param key the key
     * @param idleTimeout the idle timeout that expired
     */
    public ObjectReadTimeoutException(String bucket, String key, Duration idleTimeout) {
        super("s3://" + bucket + "/" + key + ": no byte received for " + idleTimeout.toMillis()
                + " ms while the subscriber was waiting (idle timeout); the HTTP stream was cancelled");
        this.bucket = bucket;
        this.key = key;
        this.idleTimeout = idleTimeout;
    }

    /**
     * The bucket.
     *
     * @return the bucket of the read
     */
    public String bucket() {
        return bucket;
    }

    /**
     * The key.
     *
     * @return the key of the read
     */
    public String key() {
        return key;
    }

    /**
     * The idle timeout that expired.
     *
     * @return how long the read went without a byte while bytes were requested
     */
    public Duration idleTimeout() {
        return idleTimeout;
    }
}
