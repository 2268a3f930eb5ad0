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

/**
 * Spring's {@link DataBufferUtils} (spring-core 6.2 on Reactor): {@code write(publisher, path)}
 * with chunks wrapped (zero-copy) by the shared {@link DefaultDataBufferFactory};
 * {@code read(path, factory, StreamUtils.BUFFER_SIZE)}, each buffer released after the check; copy
 * as {@code write(read(...), target)}. Spring offers no force option, so it has no durable row.
 */
public final class SpringProvider implements Provider {

    private static final DefaultDataBufferFactory BUFFERS = DefaultDataBufferFactory.sharedInstance;

    @Override
    public String name() {
        return "spring";
    }

    @Override
    public boolean supports(Op op) {
        return op != Op.WRITE_SYNC;
    }

    @Override
    public CompletableFuture<?> write(Path target, long chunks, boolean sync) {
        return DataBufferUtils.write(new ChunkPublisher<DataBuffer>(chunks, BUFFERS::wrap), target).toFuture();
    }

    @Override
    public CompletableFuture<?> read(Path source, long sizeBytes) {
        ReadCheck check = new ReadCheck(sizeBytes);
        return DataBufferUtils.read(source, BUFFERS, StreamUtils.BUFFER_SIZE)
                .doOnNext(buffer -> {
                    int length = buffer.readableByteCount();
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
        return DataBufferUtils.write(DataBufferUtils.read(source, BUFFERS, StreamUtils.BUFFER_SIZE), target)
                .toFuture();
    }
}
