package io.sluice.bench.providers;

import io.netty.buffer.Unpooled;
import io.sluice.bench.ChunkPublisher;
import io.sluice.bench.Op;
import io.sluice.bench.Provider;
import io.sluice.bench.ReadCheck;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.AsyncFile;
import io.vertx.core.file.OpenOptions;
import io.vertx.core.streams.Pipe;
import io.vertx.ext.reactivestreams.ReactiveReadStream;
import io.vertx.ext.reactivestreams.ReactiveWriteStream;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

/**
 * Vert.x 4.5 {@link AsyncFile}s, one {@link Vertx} per JVM with default options. Writes take a
 * Reactive Streams publisher through the {@code vertx-reactive-streams} bridge
 * ({@link ReactiveReadStream} piped to the file); reads use the file's own handler with its
 * default 8 KiB read size. Copy is either the bridge both ways ({@code vertx}) or the native
 * {@code AsyncFile.pipeTo} ({@code vertx-pipe}).
 */
public final class VertxProvider implements Provider {

    private static final OpenOptions WRITE = new OpenOptions().setRead(false).setWrite(true)
            .setCreate(true).setTruncateExisting(true);
    private static final OpenOptions READ = new OpenOptions().setRead(true).setWrite(false)
            .setCreate(false);

    private final Vertx vertx = Vertx.vertx();
    private final boolean nativePipe;

    private VertxProvider(boolean nativePipe) {
        this.nativePipe = nativePipe;
    }

    /** Writes through the bridge, reads natively, copies through the bridge. */
    public static VertxProvider bridge() {
        return new VertxProvider(false);
    }

    /** Copies with {@code AsyncFile.pipeTo} only. */
    public static VertxProvider nativePipe() {
        return new VertxProvider(true);
    }

    @Override
    public String name() {
        return nativePipe ? "vertx-pipe" : "vertx";
    }

    @Override
    public boolean supports(Op op) {
        return nativePipe ? op == Op.COPY : true;
    }

    /** Zero-copy: the Netty buffer wraps the chunk's array. */
    private static Buffer wrap(ByteBuffer chunk) {
        return Buffer.buffer(Unpooled.wrappedBuffer(chunk));
    }

    @Override
    public CompletableFuture<?> write(Path target, long chunks, boolean sync) {
        Future<Void> written = vertx.fileSystem().open(target.toString(), WRITE).compose(file -> {
            ReactiveReadStream<Buffer> stream = ReactiveReadStream.readStream();
            // pipe() before subscribe: subscribing first, then pipeTo, loses the chunks a publisher
            // emits synchronously inside request (the bridge drops them while it has no handler)
            // and the write never completes. See docs/results/2026-11-23-grid/README.md,
            // "Findings about the peers".
            Pipe<Buffer> pipe = stream.pipe();
            new ChunkPublisher<>(chunks, VertxProvider::wrap).subscribe(stream);
            if (!sync) {
                return pipe.to(file);
            }
            return pipe.endOnComplete(false).to(file)
                    .compose(ignored -> file.flush())
                    .compose(ignored -> file.close());
        });
        return written.toCompletionStage().toCompletableFuture();
    }

    @Override
    public CompletableFuture<?> read(Path source, long sizeBytes) {
        ReadCheck check = new ReadCheck(sizeBytes);
        Future<Long> read = vertx.fileSystem().open(source.toString(), READ).compose(file -> {
            Promise<Long> done = Promise.promise();
            file.exceptionHandler(error -> file.close().onComplete(ignored -> done.tryFail(error)));
            file.endHandler(ignored -> file.close().onComplete(closed -> {
                try {
                    done.tryComplete(check.finish());
                } catch (RuntimeException e) {
                    done.tryFail(e);
                }
            }));
            file.handler(buffer -> {
                int length = buffer.length();
                if (length > 0) {
                    check.accept(length, buffer.getByte(0), buffer.getByte(length - 1));
                }
            });
            return done.future();
        });
        return read.toCompletionStage().toCompletableFuture();
    }

    @Override
    public CompletableFuture<?> copy(Path source, Path target) {
        Future<Void> copied = vertx.fileSystem().open(source.toString(), READ).compose(from ->
                vertx.fileSystem().open(target.toString(), WRITE).compose(to -> {
                    Future<Void> piped;
                    if (nativePipe) {
                        piped = from.pipeTo(to);
                    } else {
                        ReactiveWriteStream<Buffer> publisher = ReactiveWriteStream.writeStream(vertx);
                        ReactiveReadStream<Buffer> subscriber = ReactiveReadStream.readStream();
                        Pipe<Buffer> pipe = subscriber.pipe();
                        publisher.subscribe(subscriber);
                        piped = pipe.to(to);
                        from.pipeTo(publisher);
                    }
                    return piped.eventually(() -> from.close());
                }));
        return copied.toCompletionStage().toCompletableFuture();
    }

    @Override
    public void close() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }
}
