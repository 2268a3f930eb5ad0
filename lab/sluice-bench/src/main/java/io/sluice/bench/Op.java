package io.sluice.bench;

/** What one benchmark invocation does to a file; the paper's three operations plus a durable write. */
public enum Op {
    /** A publisher of fresh 1 KiB chunks written to a new file (page cache only, no force). */
    WRITE,
    /** A file read to its end and discarded. */
    READ,
    /** A file read and written to another file. */
    COPY,
    /** {@link #WRITE} forced to the device before completion. */
    WRITE_SYNC
}
