package io.sluice;

/** How a file write opens its target. */
public enum WriteMode {
    /** Create the file or truncate an existing one (the default). */
    TRUNCATE,
    /** Create the file or append to an existing one. */
    APPEND,
    /** Create the file; fail with {@code FileAlreadyExistsException} if it exists. */
    CREATE_NEW
}
