package io.sluice.internal.read;

import io.sluice.internal.CompensatingPool;
import io.sluice.internal.RegularFiles;

import java.io.EOFException;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * A byte range of a file, read with positional reads. The range's end is fixed when the file is
 * opened ({@code min(offset + length, size)}); a file that shrinks below it while being read is an
 * error ({@link EOFException}), never a silently short result. Fills chunks
 * ({@link #fillsChunks()}); keeps the default {@link #abort()}, so a cancel leaves the close to
 * the drain. Drain-confined.
 */
public final class FileReadSource implements ReadSource {

    /** The open's options, one set for every read: the varargs form copies them into a new set each time. */
    private static final Set<OpenOption> READ = Set.of(StandardOpenOption.READ);

    private static final FileAttribute<?>[] NO_ATTRIBUTES = new FileAttribute<?>[0];

    private final Path path;
    private final FileChannel channel; // used by the drain only
    private final long end;
    private long position; // drain-confined: next byte to read

    private FileReadSource(Path path, FileChannel channel, long offset, long end) {
        this.path = path;
        this.channel = channel;
        this.position = offset;
        this.end = end;
    }

    /**
     * Opens a regular file for reading; anything else is refused with a {@link java.nio.file.FileSystemException}
     * naming it and its type ({@link RegularFiles}), before it is opened.
     */
    public static FileChannel openForRead(Path path) throws IOException {
        return openForRead(path, RegularFiles.plainFile(path));
    }

    private static FileChannel openForRead(Path path, File plain) throws IOException {
        RegularFiles.requireRegular(path, plain);
        return FileChannel.open(path, READ, NO_ATTRIBUTES);
    }

    /**
     * Opens the range of {@code path} to read, as a {@link Range}'s read opens it.
     */
    public static ReadSource open(Path path, long offset, long length, boolean exact) throws IOException {
        return new Range(path, offset, length, exact).open(null);
    }

    /**
     * What a publisher of a file's range needs, in one object: the check each read runs first (it
     * exists, is a regular file and may be read: a stat and an access check, nothing opened;
     * throws the original {@code NoSuchFileException} or {@code AccessDeniedException}) and the
     * opener of its source (with {@code exact}, a file with fewer than {@code length} bytes from
     * {@code offset} is an {@link EOFException}). Both are watched ({@link CompensatingPool}): a
     * stat or open on a hung mount does not take a thread from the pool. Immutable; any thread.
     * Its steps are method references that capture nothing, and the path's {@link File} for the
     * regular-file checks is made once, so a read allocates for neither. A file's publisher
     * extends it ({@link FileRangePublisher}), so that a read made per call is one object for both.
     */
    public static class Range implements ReadSource.Opener, ReadSource.Check {

        private final Path path;
        private final File plain; // path as a File for the checks; null: none names the same file
        private final long offset;
        private final long length;
        private final boolean exact;

        /** {@code length} bytes of {@code path} from {@code offset}; with {@code exact}, no fewer. */
        public Range(Path path, long offset, long length, boolean exact) {
            this.path = path;
            this.plain = RegularFiles.plainFile(path);
            this.offset = offset;
            this.length = length;
            this.exact = exact;
        }

        /** The file this range is of. */
        public final Path path() {
            return path;
        }

        @Override
        public final void check() throws IOException {
            CompensatingPool.watch(Range::checkReadable, this);
        }

        @Override
        public final ReadSource open(BooleanSupplier cancelled) throws IOException {
            FileChannel channel = CompensatingPool.watch(Range::openChannel, this);
            try {
                long size = channel.size();
                if (exact && length != Long.MAX_VALUE && (offset > size || size - offset < length)) {
                    throw new EOFException(path + ": file has " + size + " bytes, shorter than the range of " + length
                            + " bytes from byte " + offset);
                }
                long start = Math.min(offset, size);
                long end = length > size - start ? size : start + length;
                return new FileReadSource(path, channel, start, end);
            } catch (IOException | RuntimeException e) {
                channel.close();
                throw e;
            }
        }

        private static Void checkReadable(Range range) throws IOException {
            RegularFiles.requireReadableRegular(range.path, range.plain);
            return null;
        }

        private static FileChannel openChannel(Range range) throws IOException {
            return openForRead(range.path, range.plain);
        }
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        long left = end - position;
        if (left <= 0) {
            return -1;
        }
        if (dst.remaining() > left) {
            dst.limit(dst.position() + (int) left);
        }
        int n = channel.read(dst, position);
        if (n < 0) {
            throw new EOFException(path + ": file shrank while being read: end of file at byte " + position
                    + ", expected " + end + " bytes");
        }
        position += n;
        return n;
    }

    /** True: a positional read of a file returns short only at its end. */
    @Override
    public boolean fillsChunks() {
        return true;
    }

    @Override
    public long remaining() {
        return end - position;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
