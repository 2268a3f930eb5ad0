package io.sluice;

/**
 * How a file write opens its target.
 *
 * <p><b>Threading:</b> constants; safe to share.
 *
 * <p><b>Resources:</b> the file is opened on the write's executor when the write starts and closed
 * when it ends, whichever way.
 *
 * <p><b>Errors:</b> an open failure fails the write's stage with the original exception:
 * {@code FileAlreadyExistsException} for {@link #CREATE_NEW} on an existing file,
 * {@code NoSuchFileException} for a missing parent directory, {@code AccessDeniedException} ...
 */
public enum WriteMode {
    /** Create the file or truncate an existing one (the default). */
    TRUNCATE,
    /** Create the file or append to an existing one. */
    APPEND,
    /** Create the file; fail with {@code FileAlreadyExistsException} if it exists. */
    CREATE_NEW
}
