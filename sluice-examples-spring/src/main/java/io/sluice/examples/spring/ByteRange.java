package io.sluice.examples.spring;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpRange;

import java.util.List;

/**
 * The part of a file a {@code GET} asks for (RFC 9110 §14): the whole file when there is no
 * {@code Range} header, when it cannot be parsed, or when it names several ranges (a server may
 * ignore {@code Range}; this one serves a single range only); else one range, satisfiable or not.
 *
 * @param offset the first byte's position
 * @param length how many bytes from there
 * @param partial whether this answers a {@code Range} (206), rather than the whole file (200)
 * @param satisfiable false when the range starts at or beyond the end of the file (416)
 */
record ByteRange(long offset, long length, boolean partial, boolean satisfiable) {

    /** The range {@code headers} ask for in a file of {@code size} bytes. */
    static ByteRange of(HttpHeaders headers, long size) {
        List<HttpRange> ranges;
        try {
            ranges = headers.getRange();
        } catch (IllegalArgumentException unparsable) {
            return whole(size);
        }
        if (ranges.size() != 1) {
            return whole(size);
        }
        HttpRange range = ranges.get(0);
        long start;
        long end;
        try {
            start = range.getRangeStart(size);
            end = range.getRangeEnd(size);
        } catch (IllegalArgumentException invalid) {
            return new ByteRange(0, 0, true, false);
        }
        if (size == 0 || start >= size || end < start) {
            return new ByteRange(0, 0, true, false);
        }
        return new ByteRange(start, end - start + 1, true, true);
    }

    private static ByteRange whole(long size) {
        return new ByteRange(0, size, false, true);
    }

    /** The {@code Content-Range} value for a file of {@code size} bytes. */
    String contentRange(long size) {
        return satisfiable
                ? "bytes " + offset + "-" + (offset + length - 1) + "/" + size
                : "bytes */" + size;
    }
}
