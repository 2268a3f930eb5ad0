package io.sluice.spring;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A {@link DelimiterSearch} across the buffers of a stream, where a delimiter may begin in one
 * buffer and end in a later one (a buffer may be a single byte). Each {@link #scan} of a buffer's
 * range says which of its bytes are content and where the delimiter ends, if it does there; the
 * end of the range that could still be the start of a delimiter is held back, copied, until the
 * next scan tells whether it was one. Only those held-back bytes are ever copied: the rest of the
 * content is left where it is, for the caller to pass on as slices of its buffer.
 *
 * <p>One stream at a time, one thread at a time (its parser's).
 */
final class DelimiterScan {

    private static final byte[] NONE = new byte[0];

    private final DelimiterSearch search;
    private final byte[] held; // bytes held back: a start of the delimiter, content or not
    private int heldLength; // how many of held are in use; less than the delimiter's length
    private byte[] heldContent = NONE; // the last scan's result: held bytes found to be content
    private int contentEnd; // the last scan's result: the range's content ends here
    private int delimiterEnd = -1; // the last scan's result: the delimiter ends here, or -1

    DelimiterScan(DelimiterSearch search) {
        this.search = search;
        this.held = new byte[search.length() - 1];
    }

    /**
     * Scans {@code bytes[from, to)}, the stream's next bytes. Afterwards the content in them, in
     * order, is {@link #heldContent()} (bytes held back by earlier scans) followed by
     * {@code bytes[from, contentEnd())}; if the delimiter ended in the range, {@link #delimiterEnd()}
     * is the index after it and nothing is held any more, else it is -1 and the bytes after the
     * content are held back.
     */
    void scan(ByteBuffer bytes, int from, int to) {
        int length = search.length();
        int count = to - from;
        int heldBefore = heldLength;
        if (heldBefore > 0) {
            // A delimiter starting in the held bytes ends within the range's first length - 1 bytes.
            int joined = Math.min(count, length - 1);
            ByteBuffer joint = ByteBuffer.allocate(heldBefore + joined);
            joint.put(0, held, 0, heldBefore).put(heldBefore, bytes, from, joined);
            int start = search.indexIn(joint, 0, heldBefore + joined);
            if (start >= 0 && start < heldBefore) {
                found(Arrays.copyOf(held, start), from, from + start + length - heldBefore);
                return;
            }
            if (count < length - 1) {
                // The range is all in the joint, and what is held next may begin in the held bytes.
                int partial = search.partialAtEnd(joint, 0, heldBefore + count);
                int content = heldBefore + count - partial;
                heldContent = Arrays.copyOf(held, Math.min(content, heldBefore));
                contentEnd = from + Math.max(content - heldBefore, 0);
                delimiterEnd = -1;
                joint.get(content, held, 0, partial);
                heldLength = partial;
                return;
            }
        }
        byte[] before = heldBefore > 0 ? Arrays.copyOf(held, heldBefore) : NONE; // no delimiter starts there
        int start = search.indexIn(bytes, from, to);
        if (start >= 0) {
            found(before, start, start + length);
            return;
        }
        int partial = search.partialAtEnd(bytes, from, to);
        heldContent = before;
        contentEnd = to - partial;
        delimiterEnd = -1;
        bytes.get(to - partial, held, 0, partial);
        heldLength = partial;
    }

    private void found(byte[] content, int end, int afterDelimiter) {
        heldContent = content;
        contentEnd = end;
        delimiterEnd = afterDelimiter;
        heldLength = 0;
    }

    /** The held-back bytes the last scan found to be content, a copy; empty if none. */
    byte[] heldContent() {
        return heldContent;
    }

    /** Where the last scan's range stops being content: its end less what is held, or the delimiter's start. */
    int contentEnd() {
        return contentEnd;
    }

    /** The index after the delimiter in the last scan's range, or -1 if it did not end there. */
    int delimiterEnd() {
        return delimiterEnd;
    }
}
