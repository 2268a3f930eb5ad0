package io.sluice.bench.providers;

import io.sluice.bench.ChunkPublisher;
import io.sluice.bench.DiscardingSubscriber;
import io.sluice.bench.Op;
import io.sluice.bench.Provider;
import io.sluice.bench.ReadCheck;
import org.cqfn.rio.file.File;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

/**
 * Rio 0.3 as its README shows it: {@code new File(path).write(publisher)} with its default
 * (adaptive) write greed, {@code content()} with its default buffers, and copy as
 * {@code write(content())}. Rio has no force option, so it has no durable row.
 */
public final class RioProvider implements Provider {

    @Override
    public String name() {
        return "rio";
    }

    @Override
    public boolean supports(Op op) {
        return op != Op.WRITE_SYNC;
    }

    @Override
    public CompletableFuture<?> write(Path target, long chunks, boolean sync) {
        return new File(target).write(ChunkPublisher.of(chunks)).toCompletableFuture();
    }

    @Override
    public CompletableFuture<?> read(Path source, long sizeBytes) {
        ReadCheck check = new ReadCheck(sizeBytes);
        DiscardingSubscriber<ByteBuffer> sink = new DiscardingSubscriber<>(check::accept);
        new File(source).content().subscribe(sink);
        return sink.done().thenApply(ignored -> check.finish());
    }

    @Override
    public CompletableFuture<?> copy(Path source, Path target) {
        return new File(target).write(new File(source).content()).toCompletableFuture();
    }
}
