package io.sluice.tck.read;

import io.sluice.BytePublisher;
import io.sluice.ChunkPool;
import io.sluice.ReactiveFile;
import io.sluice.ReadOptions;
import io.sluice.tck.support.Pattern;
import io.sluice.tck.support.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link ReactiveFile#read(ReadOptions)} over real temp files of {@code n * CHUNK_BYTES} bytes
 * ({@code n = 0} included). Ranged: the same bytes sit between a 5-byte prefix and a 7-byte
 * suffix, and the read names exactly that range. Lent: the whole file in chunks lent from a small
 * pool of its own, which the TCK's subscribers never give back (so the pool's heap fallback and
 * the collector's return of dropped chunks are exercised as well).
 *
 * <p>Up to {@link #MAX_ELEMENTS} elements: {@code Integer.MAX_VALUE} chunks (16 GiB) are made as a
 * sparse file in no time, so §3.17's "pending demand above {@code Long.MAX_VALUE}" test runs on
 * files too instead of being skipped.
 */
final class FileReadFixture implements ReadFixture {

    static final long MAX_ELEMENTS = Integer.MAX_VALUE;
    private static final int PREFIX_BYTES = 5;
    private static final int SUFFIX_BYTES = 7;
    private static final long LARGEST_WRITTEN_FILE = 1024 * 1024; // larger ones are sparse

    private final boolean ranged;
    private final ChunkPool pool; // null: owned chunks
    private final TempDir dir;
    private final Map<Long, Path> files = new ConcurrentHashMap<>();

    FileReadFixture(boolean ranged) {
        this(ranged, false);
    }

    FileReadFixture(boolean ranged, boolean lent) {
        this.ranged = ranged;
        this.pool = lent ? ChunkPool.create(CHUNK_BYTES, 16) : null;
        this.dir = new TempDir(ranged ? "ranged-read" : lent ? "lent-read" : "file-read");
    }

    @Override
    public BytePublisher publisher(long elements) {
        Path file = files.computeIfAbsent(elements, this::create);
        ReadOptions options = ranged ? ReadOptions.range(PREFIX_BYTES, elements * CHUNK_BYTES) : ReadOptions.defaults();
        options = pool != null ? options.withLentChunks(pool) : options.withChunkSize(CHUNK_BYTES);
        return ReactiveFile.of(file).read(options);
    }

    @Override
    public BytePublisher failedPublisher() {
        return ReadFailures.missingFile(dir.resolve("missing.bin"), CHUNK_BYTES);
    }

    @Override
    public long maxElements() {
        return MAX_ELEMENTS;
    }

    private Path create(long elements) {
        Path file = dir.resolve(elements + ".bin");
        long content = elements * CHUNK_BYTES;
        long prefix = ranged ? PREFIX_BYTES : 0;
        long suffix = ranged ? SUFFIX_BYTES : 0;
        try (RandomAccessFile out = new RandomAccessFile(file.toFile(), "rw")) {
            if (content + prefix + suffix <= LARGEST_WRITTEN_FILE) {
                byte[] bytes = new byte[(int) (prefix + content + suffix)];
                for (int i = 0; i < bytes.length; i++) {
                    bytes[i] = i < prefix || i >= prefix + content ? (byte) 'x' : Pattern.at(i - prefix);
                }
                out.write(bytes);
            } else {
                out.setLength(prefix + content + suffix); // sparse: zeros, no disk used
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the " + elements + "-chunk file " + file, e);
        }
        return file;
    }

    @Override
    public void close() {
        dir.close();
    }

    @Override
    public String toString() {
        return ranged ? "ranged file read" : pool != null ? "lent file read" : "file read";
    }
}
