package io.sluice.bench.providers;

import io.sluice.bench.ChunkPublisher;
import io.sluice.bench.ReadCheck;
import org.cqfn.rio.file.File;
import org.reactivestreams.Publisher;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

/**
 * Rio 0.3 as its README shows it, with its defaults (lab/docs/BENCHMARK-METHOD.md lists the calls);
 * {@code rio-64k} reads with fresh 64 KiB direct buffers, sluice's chunk size. Rio has no force
 * option, so it has no durable row.
 */
final class RioProvider extends NamedProvider {

    private final boolean largeReads; // rio-64k

    RioProvider(String name) {
        super(name, name.endsWith("-64k") ? READ_COPY : NOT_DURABLE);
        this.largeReads = name.endsWith("-64k");
    }

    @Override
    public CompletableFuture<?> write(Path target, long chunks, boolean sync) {
        return new File(target).write(ChunkPublisher.of(chunks)).toCompletableFuture();
    }

    private Publisher<ByteBuffer> content(Path source) {
        return largeReads
                ? new File(source).content(() -> ByteBuffer.allocateDirect(64 * 1024))
                : new File(source).content();
    }

    @Override
    public CompletableFuture<?> read(Path source, long sizeBytes) {
        return new ReadCheck(sizeBytes).drain(content(source), chunk -> {});
    }

    @Override
    public CompletableFuture<?> copy(Path source, Path target) {
        return new File(target).write(content(source)).toCompletableFuture();
    }
}
