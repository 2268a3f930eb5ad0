package io.sluice.bench.providers;

import io.sluice.bench.ChunkPublisher;
import io.sluice.bench.DiscardingSubscriber;
import io.sluice.bench.ReadCheck;
import org.cqfn.rio.file.File;
import org.reactivestreams.Publisher;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

/**
 * Rio 0.3 as its README shows it: {@code new File(path).write(publisher)} with its default
 * (adaptive) write greed, {@code content()} with its default buffers (a fresh 8 KiB direct buffer
 * per chunk, {@code Buffers.Standard.K8}), and copy as {@code write(content())}. {@code rio-64k}
 * reads and copies with {@code content(buffers)} handing out fresh 64 KiB direct buffers, sluice's
 * read chunk size; it has no write row. Rio has no force option, so it has no durable row.
 */
final class RioProvider extends NamedProvider {

    private final boolean largeReads;   // rio-64k

    RioProvider(String name) {
        super(name, name.endsWith("-64k") ? READ_COPY : NOT_DURABLE);
        this.largeReads = name.endsWith("-64k");
    }

    @Override
    public CompletableFuture<?> write(Path target, long chunks, boolean sync) {
        return new File(target).write(ChunkPublisher.of(chunks)).toCompletableFuture();
    }

    private Publisher<ByteBuffer> content(Path source) {
        return largeReads ? new File(source).content(() -> ByteBuffer.allocateDirect(64 * 1024))
                : new File(source).content();
    }

    @Override
    public CompletableFuture<?> read(Path source, long sizeBytes) {
        ReadCheck check = new ReadCheck(sizeBytes);
        DiscardingSubscriber<ByteBuffer> sink = new DiscardingSubscriber<>(check::accept);
        content(source).subscribe(sink);
        return sink.done().thenApply(ignored -> check.finish());
    }

    @Override
    public CompletableFuture<?> copy(Path source, Path target) {
        return new File(target).write(content(source)).toCompletableFuture();
    }
}
