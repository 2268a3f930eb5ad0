package io.sluice.tck.support;

/**
 * The bytes every synthetic source produces: byte {@code i} of a stream is {@code at(i)}, so a
 * reader's output can be checked without keeping a copy, and consecutive chunks differ.
 */
public final class Pattern {

    private Pattern() {}

    public static byte at(long position) {
        return (byte) (position * 31 + (position >>> 8));
    }
}
