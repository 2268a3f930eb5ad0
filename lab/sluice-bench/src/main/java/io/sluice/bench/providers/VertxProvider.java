package io.sluice.bench.providers;

import io.netty.buffer.Unpooled;
import io.sluice.bench.ChunkPublisher;
import io.sluice.bench.Op;
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

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Vert.x 4.5 {@link AsyncFile}s, one {@link Vertx} per provider with default options, driven as
 * lab/docs/BENCHMARK-METHOD.md lists: writes through the {@code vertx-reactive-streams} bridge
 * ({@link ReactiveReadStream} piped to the file), reads through the file's handler, copies through
 * both ends of the bridge, each ended only after it has passed on every buffer ({@link #endWhenSent},
 * {@link CountedBridge}).
 *
 * <p>Vert.x's {@code flush()} is {@code force(false)}, its channel is hidden and {@code setSync} syncs
 * every write, so the durable write closes the file (which waits for its writes), then forces it
 * through a {@code FileChannel} on a worker thread ({@link #forceClosed}), as a Vert.x user
 * who needs {@code force(true)} would.
 */
final class VertxProvider extends NamedProvider {

    private static final OpenOptions WRITE =
            new OpenOptions().setRead(false).setWrite(true).setCreate(true).setTruncateExisting(true);
    private static final OpenOptions READ =
            new OpenOptions().setRead(true).setWrite(false).setCreate(false);

    private final Vertx vertx = Vertx.vertx();
    private final boolean nativePipe; // vertx-pipe, vertx-pipe-64k: copies only
    private final boolean largeReads; // sluice's 64 KiB read chunk, not AsyncFileImpl.DEFAULT_READ_BUFFER_SIZE

    VertxProvider(String name) {
        super(
                name,
                name.startsWith("vertx-pipe")
                        ? Set.of(Op.COPY)
                        : name.endsWith("-64k") ? READ_COPY : EnumSet.allOf(Op.class));
        this.nativePipe = name.startsWith("vertx-pipe");
        this.largeReads = name.endsWith("-64k");
    }

    @Override
    public CompletableFuture<?> write(Path target, long chunks, boolean sync) {
        Future<Void> written = vertx.fileSystem().open(target.toString(), WRITE).compose(file -> {
            ReactiveReadStream<Buffer> stream = ReactiveReadStream.readStream();
            // pipe() before subscribe: the bridge drops the chunks a publisher emits synchronously inside
            // request while it has no handler, and the write would never complete
            Pipe<Buffer> pipe = stream.pipe();
            new ChunkPublisher<>(chunks, chunk -> Buffer.buffer(Unpooled.wrappedBuffer(chunk))) // zero-copy
                    .subscribe(stream);
            if (!sync) {
                return pipe.to(file);
            }
            return pipe.endOnComplete(false)
                    .to(file)
                    .compose(ignored -> file.close())
                    .compose(ignored -> vertx.<Void>executeBlocking(
                            () -> {
                                forceClosed(target);
                                return null;
                            },
                            false));
        });
        return written.toCompletionStage().toCompletableFuture();
    }

    private Future<AsyncFile> openForReading(Path source) {
        return vertx.fileSystem()
                .open(source.toString(), READ)
                .map(file -> largeReads ? file.setReadBufferSize(64 * 1024) : file);
    }

    @Override
    public CompletableFuture<?> read(Path source, long sizeBytes) {
        ReadCheck check = new ReadCheck(sizeBytes);
        Future<ReadCheck.Delivered> read = openForReading(source).compose(file -> {
            Promise<Void> done = Promise.promise();
            file.exceptionHandler(error -> file.close().onComplete(ignored -> done.tryFail(error)));
            file.endHandler(ignored -> file.close().onComplete(closed -> done.tryComplete()));
            file.handler(buffer -> {
                int length = buffer.length();
                if (length > 0) {
                    check.accept(length, buffer.getByte(0), buffer.getByte(length - 1));
                }
            });
            return done.future().map(ignored -> check.finish());
        });
        return read.toCompletionStage().toCompletableFuture();
    }

    @Override
    public CompletableFuture<?> copy(Path source, Path target) {
        Future<Void> copied = openForReading(source)
                .compose(from -> vertx.fileSystem()
                        .open(target.toString(), WRITE)
                        .compose(to -> {
                            Future<Void> piped;
                            if (nativePipe) {
                                piped = from.pipeTo(to);
                            } else {
                                ReactiveWriteStream<Buffer> publisher = ReactiveWriteStream.writeStream(vertx);
                                CountedBridge subscriber = new CountedBridge();
                                Pipe<Buffer> pipe = subscriber.pipe();
                                publisher.subscribe(subscriber);
                                piped = pipe.to(to);
                                from.pipe()
                                        .endOnComplete(false)
                                        .to(publisher)
                                        .onSuccess(ignored -> endWhenSent(publisher));
                            }
                            return piped.eventually(() -> from.close());
                        }));
        return copied.toCompletionStage().toCompletableFuture();
    }

    /**
     * Ends the bridge once its subscriber has taken every buffer: {@code ReactiveWriteStream.end()} drops the
     * buffers still waiting for demand, so ending it as soon as the file is read would cut the copy short.
     * With a queue of one, "not full" means "nothing pending", which is when the drain handler runs.
     */
    static void endWhenSent(ReactiveWriteStream<Buffer> publisher) {
        publisher.setWriteQueueMaxSize(1);
        publisher.drainHandler(ignored -> publisher.end());
        if (!publisher.writeQueueFull()) {
            publisher.end();
        }
    }

    @Override
    public void close() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }
}
