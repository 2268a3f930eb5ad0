package io.sluice.bench.providers;

import io.sluice.bench.ChunkPublisher;
import io.sluice.bench.Op;
import io.sluice.bench.Provider;
import io.sluice.bench.ReadCheck;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.util.StreamUtils;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntConsumer;

/**
 * Spring's {@link DataBufferUtils} (spring-core 6.2 on Reactor): {@code write(publisher, path)}
 * with chunks wrapped (zero-copy) by the shared {@link DefaultDataBufferFactory};
 * {@code read(path, factory, bufferSize)}, each buffer released after the check; copy as
 * {@code write(read(...), target)}. {@code spring} reads {@link StreamUtils#BUFFER_SIZE} (8 KiB)
 * at a time, as Spring's own callers do; {@code spring-64k} reads sluice's 64 KiB and only reads
 * and copies. Spring offers no force option, so it has no durable row.
 */
public final class SpringProvider implements Provider {

    /** How {@code spring-64k} reads: sluice's default read chunk. */
    static final int LARGE_READ_BUFFER_BYTES = 64 * 1024;

    private static final DefaultDataBufferFactory BUFFERS = DefaultDataBufferFactory.sharedInstance;

    private final int readBufferBytes;

    private SpringProvider(int readBufferBytes) {
        this.readBufferBytes = readBufferBytes;
    }

    /** Reads {@link StreamUtils#BUFFER_SIZE} at a time; writes and copies. */
    public static SpringProvider defaults() {
        return new SpringProvider(StreamUtils.BUFFER_SIZE);
    }

    /** Reads and copies 64 KiB at a time; no write row (the read size does not touch writes). */
    public static SpringProvider largeReads() {
        return new SpringProvider(LARGE_READ_BUFFER_BYTES);
    }

    @Override
    public String name() {
        return readBufferBytes == StreamUtils.BUFFER_SIZE ? "spring" : "spring-" + readBufferBytes / 1024 + "k";
    }

    @Override
    public boolean supports(Op op) {
        if (readBufferBytes != StreamUtils.BUFFER_SIZE) {
            return op == Op.READ || op == Op.COPY;
        }
        return op != Op.WRITE_SYNC;
    }

    @Override
    public CompletableFuture<?> write(Path target, long chunks, boolean sync) {
        return DataBufferUtils.write(new ChunkPublisher<DataBuffer>(chunks, BUFFERS::wrap), target).toFuture();
    }

    @Override
    public CompletableFuture<?> read(Path source, long sizeBytes) {
        return read(source, sizeBytes, length -> { });
    }

    /** {@link #read(Path, long)}, telling {@code chunkLengths} each chunk's length (for tests). */
    CompletableFuture<Long> read(Path source, long sizeBytes, IntConsumer chunkLengths) {
        ReadCheck check = new ReadCheck(sizeBytes);
        return DataBufferUtils.read(source, BUFFERS, readBufferBytes)
                .doOnNext(buffer -> {
                    int length = buffer.readableByteCount();
                    chunkLengths.accept(length);
                    if (length > 0) {
                        int first = buffer.readPosition();
                        check.accept(length, buffer.getByte(first), buffer.getByte(first + length - 1));
                    }
                    DataBufferUtils.release(buffer);
                })
                .then()
                .toFuture()
                .thenApply(ignored -> check.finish());
    }

    @Override
    public CompletableFuture<?> copy(Path source, Path target) {
        return DataBufferUtils.write(DataBufferUtils.read(source, BUFFERS, readBufferBytes), target)
                .toFuture();
    }
}
