package io.sluice.bench.providers;

import io.sluice.bench.ChunkPublisher;
import io.sluice.bench.DiscardingSubscriber;
import io.sluice.bench.Op;
import io.sluice.bench.Provider;
import io.sluice.bench.ReadCheck;
import org.cqfn.rio.Buffers;
import org.cqfn.rio.file.File;
import org.reactivestreams.Publisher;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntConsumer;

/**
 * Rio 0.3 as its README shows it: {@code new File(path).write(publisher)} with its default
 * (adaptive) write greed, {@code content()} with its default buffers (a fresh 8 KiB direct buffer
 * per chunk, {@code Buffers.Standard.K8}), and copy as {@code write(content())}. {@code rio-64k}
 * reads and copies with {@code content(buffers)} handing out fresh 64 KiB direct buffers, sluice's
 * read chunk size; it has no write row. Rio has no force option, so it has no durable row.
 */
public final class RioProvider implements Provider {

    /** How {@code rio-64k} reads: sluice's default read chunk. */
    static final int LARGE_READ_BUFFER_BYTES = 64 * 1024;

    private final boolean largeReads;

    private RioProvider(boolean largeReads) {
        this.largeReads = largeReads;
    }

    /** Rio's defaults for every operation. */
    public static RioProvider defaults() {
        return new RioProvider(false);
    }

    /** Reads and copies with 64 KiB chunks. */
    public static RioProvider largeReads() {
        return new RioProvider(true);
    }

    @Override
    public String name() {
        return largeReads ? "rio-64k" : "rio";
    }

    @Override
    public boolean supports(Op op) {
        if (largeReads) {
            return op == Op.READ || op == Op.COPY;
        }
        return op != Op.WRITE_SYNC;
    }

    @Override
    public CompletableFuture<?> write(Path target, long chunks, boolean sync) {
        return new File(target).write(ChunkPublisher.of(chunks)).toCompletableFuture();
    }

    private Publisher<ByteBuffer> content(Path source) {
        if (largeReads) {
            Buffers buffers = () -> ByteBuffer.allocateDirect(LARGE_READ_BUFFER_BYTES);
            return new File(source).content(buffers);
        }
        return new File(source).content();
    }

    @Override
    public CompletableFuture<?> read(Path source, long sizeBytes) {
        return read(source, sizeBytes, length -> { });
    }

    /** {@link #read(Path, long)}, telling {@code chunkLengths} each chunk's length (for tests). */
    CompletableFuture<Long> read(Path source, long sizeBytes, IntConsumer chunkLengths) {
        ReadCheck check = new ReadCheck(sizeBytes);
        DiscardingSubscriber<ByteBuffer> sink = new DiscardingSubscriber<>(chunk -> {
            chunkLengths.accept(chunk.remaining());
            check.accept(chunk);
        });
        content(source).subscribe(sink);
        return sink.done().thenApply(ignored -> check.finish());
    }

    @Override
    public CompletableFuture<?> copy(Path source, Path target) {
        return new File(target).write(content(source)).toCompletableFuture();
    }
}
