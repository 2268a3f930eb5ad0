package io.sluice.bench.providers;

import io.sluice.bench.ChunkPublisher;
import io.sluice.bench.ReadCheck;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.util.StreamUtils;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

/**
 * Spring's {@link DataBufferUtils} (spring-core 6.2 on Reactor), chunks wrapped zero-copy, each read
 * buffer released after the check. {@code spring} reads {@link StreamUtils#BUFFER_SIZE} (8 KiB) at a
 * time, as Spring's own callers do; {@code spring-64k} reads sluice's 64 KiB. Spring offers no force
 * option, so it has no durable row.
 */
final class SpringProvider extends NamedProvider {

    private static final DefaultDataBufferFactory BUFFERS = DefaultDataBufferFactory.sharedInstance;

    private final int readBufferBytes; // spring-64k: 64 KiB

    SpringProvider(String name) {
        super(name, name.endsWith("-64k") ? READ_COPY : NOT_DURABLE);
        this.readBufferBytes = name.endsWith("-64k") ? 64 * 1024 : StreamUtils.BUFFER_SIZE;
    }

    @Override
    public CompletableFuture<?> write(Path target, long chunks, boolean sync) {
        return DataBufferUtils.write(new ChunkPublisher<DataBuffer>(chunks, BUFFERS::wrap), target)
                .toFuture();
    }

    @Override
    public CompletableFuture<?> read(Path source, long sizeBytes) {
        ReadCheck check = new ReadCheck(sizeBytes);
        return DataBufferUtils.read(source, BUFFERS, readBufferBytes)
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
        return DataBufferUtils.write(DataBufferUtils.read(source, BUFFERS, readBufferBytes), target)
                .toFuture();
    }
}
