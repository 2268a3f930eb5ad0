package io.sluice.server;

/**
 * Observer of upload outcomes, called once per PUT after the storage end has finished (file
 * renamed into place, or temporary removed). Called from server threads; must not block.
 */
public interface UploadEvents {

    /** Ignores everything. */
    UploadEvents NONE = new UploadEvents() {};

    /** The body was stored completely under {@code name}. */
    default void stored(String name, long bytes, String sha256Hex) {}

    /** Nothing was stored under {@code name}; {@code cause} says why. */
    default void failed(String name, Throwable cause) {}
}
