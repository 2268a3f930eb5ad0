package io.sluice.server;

/**
 * One byte range of a file (RFC 9110 §14.1.2): {@code bytes=first-last}, {@code bytes=first-} or
 * {@code bytes=-suffixLength}. Several ranges in one header are not supported: such a header is
 * ignored and the whole file is sent (RFC 9110 §14.2 allows a server to ignore {@code Range}).
 *
 * @param offset the first byte
 * @param length how many bytes
 * @param partial whether the answer is 206 with {@code Content-Range}
 */
record ByteRange(long offset, long length, boolean partial) {

    /** The range a request asks for, or the whole file; null when unsatisfiable (416). */
    static ByteRange of(String header, long fileSize) {
        ByteRange whole = new ByteRange(0, fileSize, false);
        if (header == null) {
            return whole;
        }
        String value = header.trim();
        if (!value.startsWith("bytes=") || value.indexOf(',') >= 0) {
            return whole;
        }
        String spec = value.substring("bytes=".length()).trim();
        int dash = spec.indexOf('-');
        if (dash < 0) {
            return whole;
        }
        try {
            String first = spec.substring(0, dash).trim();
            String last = spec.substring(dash + 1).trim();
            if (first.isEmpty()) {
                long suffix = Long.parseLong(last);
                if (suffix <= 0 || fileSize == 0) {
                    return null;
                }
                long length = Math.min(suffix, fileSize);
                return new ByteRange(fileSize - length, length, true);
            }
            long start = Long.parseLong(first);
            if (start < 0 || start >= fileSize) {
                return null;
            }
            long end = last.isEmpty() ? fileSize - 1 : Math.min(Long.parseLong(last), fileSize - 1);
            if (end < start) {
                return whole; // syntactically invalid: ignore the header
            }
            return new ByteRange(start, end - start + 1, true);
        } catch (NumberFormatException e) {
            return whole;
        }
    }

    String contentRange(long fileSize) {
        return "bytes " + offset + "-" + (offset + length - 1) + "/" + fileSize;
    }
}
