package io.sluice.spring;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Finds one byte pattern in a range of a {@link ByteBuffer} by Boyer-Moore-Horspool: the pattern is
 * compared from its last byte, and on a mismatch the window moves by the bad-character shift of the
 * byte under the pattern's last position, so a range that holds none of the pattern's bytes is read
 * about once every pattern length. Bytes are read with absolute gets: no callback per byte, no
 * change to the buffer's position.
 *
 * <p>Immutable once built; one instance serves any number of parses, on any threads.
 */
final class DelimiterSearch {

    private final byte[] pattern;
    private final int[] shift; // bad-character shift, by unsigned byte value

    /**
     * A search for {@code pattern}.
     *
     * @param pattern one byte or more; not copied, so never changed afterwards
     */
    DelimiterSearch(byte[] pattern) {
        if (pattern.length == 0) {
            throw new IllegalArgumentException("an empty pattern");
        }
        this.pattern = pattern;
        this.shift = new int[256];
        Arrays.fill(shift, pattern.length);
        for (int i = 0; i < pattern.length - 1; i++) {
            shift[pattern[i] & 0xFF] = pattern.length - 1 - i;
        }
    }

    /** The pattern's length in bytes. */
    int length() {
        return pattern.length;
    }

    /** The pattern's byte at {@code index}. */
    byte byteAt(int index) {
        return pattern[index];
    }

    /**
     * The index where the first whole occurrence of the pattern in {@code bytes[from, to)} starts, or
     * -1 if none lies wholly inside the range.
     */
    int indexIn(ByteBuffer bytes, int from, int to) {
        int last = pattern.length - 1;
        byte lastByte = pattern[last];
        int start = from;
        while (start <= to - pattern.length) {
            byte under = bytes.get(start + last);
            if (under == lastByte && matchesBefore(bytes, start, last)) {
                return start;
            }
            start += shift[under & 0xFF];
        }
        return -1;
    }

    /** Whether {@code bytes[start, start + count)} equals the pattern's first {@code count} bytes. */
    private boolean matchesBefore(ByteBuffer bytes, int start, int count) {
        for (int i = count - 1; i >= 0; i--) {
            if (bytes.get(start + i) != pattern[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * The length of the longest end of {@code bytes[from, to)} that is the start of the pattern but
     * not the whole of it: the bytes a search over a stream must hold back, since the next bytes
     * may complete the pattern. Zero when no end of the range could.
     */
    int partialAtEnd(ByteBuffer bytes, int from, int to) {
        byte first = pattern[0];
        for (int length = Math.min(pattern.length - 1, to - from); length > 0; length--) {
            int start = to - length;
            if (bytes.get(start) == first && matchesBefore(bytes, start, length)) {
                return length;
            }
        }
        return 0;
    }
}
