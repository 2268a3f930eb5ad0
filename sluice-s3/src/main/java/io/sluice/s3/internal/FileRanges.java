package io.sluice.s3.internal;

import java.nio.file.Path;
import java.nio.file.attribute.FileTime;

/**
 * A file cut into the ranges its parts send (O12): consecutive, each of the part size but the last,
 * which may be smaller. The file's size and modification time are the ones found when the upload
 * started, against which every range's body checks the file (FileBody's V1). Drain-confined.
 */
final class FileRanges {

    private final Path file;
    private final long size; // the file's size when the upload started
    private final FileTime modifiedAtStart; // its modification time then
    private long next; // the first byte of the next range

    FileRanges(Path file, long size, FileTime modifiedAtStart) {
        this.file = file;
        this.size = size;
        this.modifiedAtStart = modifiedAtStart;
    }

    boolean hasNext() {
        return next < size;
    }

    /**
     * The next range, of {@code partBytes} or the bytes left; its body is made by {@link Range#body},
     * a file system call.
     */
    Range next(long partBytes) {
        long length = Math.min(partBytes, size - next);
        Range range = new Range(next, length);
        next += length;
        return range;
    }

    /** Bytes {@code [position, position + length)} of the file. */
    final class Range {
        private final long position;
        private final long length;

        private Range(long position, long length) {
            this.position = position;
            this.length = length;
        }

        long length() {
            return length;
        }

        /**
         * Its body (FileBody's V1-V5), for the multipart upload {@code uploadId}; looks at the file's
         * attributes, for a thread that may wait.
         */
        FileBody body(String bucket, String key, String uploadId, boolean checksummed) {
            return FileBody.range(file, size, modifiedAtStart, position, length, bucket, key, uploadId, checksummed);
        }
    }
}
