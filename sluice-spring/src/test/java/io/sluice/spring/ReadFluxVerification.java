package io.sluice.spring;

import io.sluice.ChunkPool;
import io.sluice.ReadOptions;
import org.reactivestreams.Publisher;
import org.reactivestreams.tck.PublisherVerification;
import org.reactivestreams.tck.TestEnvironment;
import org.springframework.core.io.buffer.DataBuffer;
import org.testng.annotations.AfterClass;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The Reactive Streams TCK (org.reactivestreams flavour) for {@link DataBufferFiles#read(Path, ReadOptions)}:
 * files of {@code n} 8-byte chunks read through a pool of 8-byte chunks. The TCK's subscribers never
 * release what they get, so the pool's heap fallback is exercised too. Files up to
 * {@code Integer.MAX_VALUE} chunks are sparse, so §3.17 runs instead of being skipped. Run by
 * {@link ReadTckTest}; public with a no-argument constructor, as TestNG needs.
 */
public class ReadFluxVerification extends PublisherVerification<DataBuffer> {

    private static final int CHUNK_BYTES = 8;
    private static final long TIMEOUT_MILLIS = Long.getLong("sluice.tck.timeoutMillis", 2000);
    private static final long NO_SIGNALS_MILLIS = Long.getLong("sluice.tck.noSignalsMillis", 500);

    private final ChunkPool pool = ChunkPool.create(CHUNK_BYTES, 16);
    private final Path dir;

    public ReadFluxVerification() throws IOException {
        super(new TestEnvironment(TIMEOUT_MILLIS, NO_SIGNALS_MILLIS), 1000);
        this.dir = Files.createTempDirectory("sluice-spring-tck");
    }

    @Override
    public Publisher<DataBuffer> createPublisher(long elements) {
        Path file = dir.resolve(elements + ".bin");
        try (RandomAccessFile out = new RandomAccessFile(file.toFile(), "rw")) {
            out.setLength(elements * CHUNK_BYTES); // sparse: zeros, no disk used
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return DataBufferFiles.read(file, ReadOptions.defaults().withLentChunks(pool));
    }

    @Override
    public Publisher<DataBuffer> createFailedPublisher() {
        return DataBufferFiles.read(
                dir.resolve("missing.bin"), ReadOptions.defaults().withLentChunks(pool));
    }

    @Override
    public long maxElementsFromPublisher() {
        return Integer.MAX_VALUE;
    }

    @AfterClass(alwaysRun = true)
    public void deleteFiles() throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }
}
