package io.sluice.spring;

import io.sluice.ByteChannels;
import io.sluice.ChunkPool;
import io.sluice.ReactiveFile;
import io.sluice.ReadOptions;
import io.sluice.WriteOptions;
import org.reactivestreams.Publisher;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import org.springframework.core.io.buffer.PooledDataBuffer;
import org.springframework.util.ClassUtils;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * Spring's {@link DataBuffer} streams to and from files and channels through sluice: the
 * counterpart of {@code DataBufferUtils.write} and {@code DataBufferUtils.read}, with sluice's
 * bounded, adaptive write demand and pooled reads.
 *
 * <pre>{@code
 * Mono<Long> saved = DataBufferFiles.write(request.getBody(), path);            // an upload
 * Flux<DataBuffer> body = DataBufferFiles.read(path, response.bufferFactory());  // a download
 * }</pre>
 *
 * <p><b>Threading:</b> the returned {@code Mono} and {@code Flux} are cold: each subscription starts
 * its own write or read, which runs on {@link io.sluice.IoExecutors#files()} (or the options'
 * executor), and signals its subscriber from there. A write subscribes to its source on the
 * subscribing thread, with the subscriber's Reactor context (so a {@code contextWrite} below the
 * write reaches the source, as with {@code DataBufferUtils.write}).
 *
 * <p><b>Backpressure:</b> a write requests from its source as {@link WriteOptions} say (adaptive
 * demand within a byte cap, 1 MiB by default); a read reads only what is requested, one pooled
 * chunk per item.
 *
 * <p><b>Resources:</b> a write releases each {@code DataBuffer} it receives exactly once, after its
 * bytes are written, or when the write ends without writing them (cancelled, failed, the source
 * failed): never before, never twice. Those the source's Reactor operators hold when the write ends
 * early ({@code publishOn}'s queue, a {@code buffer} being filled) never reach it: the context it
 * subscribes the source with carries a discard hook that releases them, once. A read emits
 * {@link PooledDataBuffer}s (Netty's, given Netty's factory) whose memory is a chunk lent by a
 * {@link ChunkPool}: {@code DataBufferUtils.release(buffer)} gives the chunk back; one never released is garbage, and its pool lends a heap chunk instead while
 * it is out. Files and channels are closed when the operation ends, whichever way.
 *
 * <p><b>Errors:</b> a source that fails has every buffer it sent before the error written, then
 * the write fails with that error, as with {@code DataBufferUtils.write}; a {@code null} argument
 * throws {@link NullPointerException} at the call;
 * anything else (options that combine atomic replace with append, a missing directory, a directory
 * as target or source, no permission, a full disk, the source's own error) reaches the subscriber
 * as {@code onError} with the original exception.
 */
public final class DataBufferFiles {

    /** Netty's buffers on the class path: only then can a factory be Netty's, and LentChunkByteBuf load. */
    private static final boolean NETTY_PRESENT =
            ClassUtils.isPresent("io.netty.buffer.ByteBuf", DataBufferFiles.class.getClassLoader());

    private DataBufferFiles() {}

    /**
     * Writes {@code source} to {@code target}, created or truncated; as
     * {@link #write(Publisher, Path, WriteOptions)} with {@link WriteOptions#defaults()}.
     *
     * @param source the bytes to write; each buffer is released once its bytes are written
     * @param target the file to write, created or truncated
     * @return a cold {@code Mono} of the number of bytes written; see
     *     {@link #write(Publisher, Path, WriteOptions)}
     * @throws NullPointerException if an argument is {@code null}
     */
    public static Mono<Long> write(Publisher<? extends DataBuffer> source, Path target) {
        return write(source, target, WriteOptions.defaults());
    }

    /**
     * Writes {@code source} to {@code target} with sluice's writer ({@link ReactiveFile#write(Publisher,
     * WriteOptions)}), releasing each buffer exactly once after its bytes are written.
     *
     * @param source the bytes to write, subscribed once per subscription to the result; each buffer
     *     is released once its bytes are written, or when the write ends without them
     * @param target the file to write, opened as {@code options.mode()} says
     * @param options open mode, demand, byte cap, sync, atomic replace, executor and listener
     * @return a cold {@code Mono}: subscribing starts the write, which emits the number of bytes
     *     written once the file is closed (and forced, with sync), or the first error; cancelling
     *     the subscription cancels the write (the file is closed, the source cancelled, and what it
     *     had sent released); options that combine atomic replace with append fail it with
     *     {@link IllegalArgumentException}
     * @throws NullPointerException if an argument is {@code null}
     */
    public static Mono<Long> write(Publisher<? extends DataBuffer> source, Path target, WriteOptions options) {
        Objects.requireNonNull(source, "source");
        ReactiveFile file = ReactiveFile.of(target);
        Objects.requireNonNull(options, "options");
        return started(context -> file.write(new LendingPublisher(source, context), options));
    }

    /**
     * Writes {@code source} to {@code channel}, then closes it, with sluice's writer
     * ({@link ByteChannels#write(WritableByteChannel, Publisher, WriteOptions)}), releasing each
     * buffer exactly once after its bytes are written.
     *
     * <p>A channel can be written once: subscribe to the result once.
     *
     * @param source the bytes to write; each buffer is released once its bytes are written, or
     *     when the write ends without them
     * @param channel the channel to write, already open, from its current position; closed when the
     *     write ends, whichever way
     * @param options demand, byte cap, executor and listener ({@code mode} and atomic replace do
     *     not apply to a channel)
     * @return a cold {@code Mono} of the number of bytes written; cancelling the subscription
     *     cancels the write and closes the channel
     * @throws NullPointerException if an argument is {@code null}
     */
    public static Mono<Long> write(
            Publisher<? extends DataBuffer> source, WritableByteChannel channel, WriteOptions options) {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(options, "options");
        return started(context -> ByteChannels.write(channel, new LendingPublisher(source, context), options));
    }

    /**
     * Hands {@code source} to any writer that takes a {@code Publisher<ByteBuffer>} and gives its
     * lent items back once their bytes are used ({@link ChunkPool#giveBack}), as sluice's writers
     * do and {@code sluice-s3}'s {@code ReactiveObject.write} does, releasing each buffer exactly
     * once: the way {@link #write(Publisher, Path, WriteOptions)} feeds the file writer.
     *
     * <pre>{@code
     * Mono<UploadResult> stored = DataBufferFiles.writeWith(request.getBody(),
     *         bytes -> ReactiveObject.of(s3, bucket, key).write(bytes, UploadOptions.defaults()));
     * }</pre>
     *
     * <p>Each item the writer receives is a view of one buffer's readable bytes (a copy, for a
     * composite buffer), lent with {@link ChunkPool#lend}: the buffer is released when the writer
     * gives the view back, or, for a buffer the source's operators drop before it reaches the
     * writer, by the discard hook of the context the source is subscribed with. A writer that never
     * gives an item back never has its buffer released.
     *
     * @param <T> what the writer's stage completes with
     * @param source the bytes to write, subscribed by the writer, with the subscriber's Reactor
     *     context, once per subscription to the result
     * @param writer starts a write of the publisher it is given and returns its stage; called once
     *     per subscription to the result
     * @return a cold {@code Mono}: subscribing calls {@code writer}, and the {@code Mono} signals
     *     what its stage completes with; cancelling the subscription cancels the stage
     * @throws NullPointerException if an argument is {@code null}
     */
    public static <T> Mono<T> writeWith(
            Publisher<? extends DataBuffer> source,
            Function<? super Publisher<ByteBuffer>, ? extends CompletionStage<T>> writer) {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(writer, "writer");
        return started(context -> writer.apply(new LendingPublisher(source, context)));
    }

    /**
     * The whole of {@code file} in pooled 64 KiB chunks; as {@link #read(Path, ReadOptions)} with
     * {@link ReadOptions#defaults()}.
     *
     * @param file the file to read
     * @return a cold {@code Flux} of pooled buffers: release each one
     * @throws NullPointerException if {@code file} is {@code null}
     */
    public static Flux<DataBuffer> read(Path file) {
        return read(file, ReadOptions.defaults());
    }

    /**
     * {@code file}, or the options' range of it, as pooled buffers: each is a chunk lent by the
     * options' {@link ChunkPool} (by the shared pool for the chunk size if the options lend none),
     * read into without a copy and wrapped as a {@link PooledDataBuffer} whose release gives the
     * chunk back. As {@link #read(Path, DataBufferFactory, ReadOptions)} with a factory that is not
     * Netty's.
     *
     * @param file the file to read
     * @param options chunk size, range, executor and pool of the read; options with owned chunks
     *     are read with lent ones from the shared pool for their chunk size
     * @return a cold {@code Flux}: each subscriber reads the file anew; each buffer must be released
     *     ({@code DataBufferUtils.release}) once used, as Spring's codecs and servers do; a missing
     *     or unreadable file or a directory arrives as {@code onError}
     * @throws NullPointerException if an argument is {@code null}
     */
    public static Flux<DataBuffer> read(Path file, ReadOptions options) {
        return read(file, DefaultDataBufferFactory.sharedInstance, options);
    }

    /**
     * The whole of {@code file} in pooled 64 KiB chunks, as {@code factory}'s kind of buffer where it
     * matters; as {@link #read(Path, DataBufferFactory, ReadOptions)} with
     * {@link ReadOptions#defaults()}.
     *
     * @param file the file to read
     * @param factory the factory of the buffers' consumer, {@code response.bufferFactory()} in WebFlux
     * @return a cold {@code Flux} of pooled buffers: release each one
     * @throws NullPointerException if an argument is {@code null}
     */
    public static Flux<DataBuffer> read(Path file, DataBufferFactory factory) {
        return read(file, factory, ReadOptions.defaults());
    }

    /**
     * {@code file}, or the options' range of it, as pooled buffers of the kind {@code factory}'s
     * consumer sends without a copy. Each is a chunk lent by the options' {@link ChunkPool} (by the
     * shared pool for the chunk size if the options lend none), read into without a copy:
     * <ul>
     *   <li>with a {@code NettyDataBufferFactory} (Reactor Netty's {@code response.bufferFactory()}),
     *       a {@code NettyDataBuffer} over the chunk's memory, which Netty sends as it is; when
     *       Netty's reference count reaches 0 the chunk goes back, once. Reactor Netty copies any
     *       other buffer and never releases it, so pass the response's factory there;</li>
     *   <li>with any other factory, a {@link PooledDataBuffer} whose last release gives the chunk
     *       back; the factory allocates nothing.</li>
     * </ul>
     * Netty is an optional dependency: without it on the class path no Netty class is loaded.
     *
     * @param file the file to read
     * @param factory the factory of the buffers' consumer, {@code response.bufferFactory()} in WebFlux
     * @param options chunk size, range, executor and pool of the read; options with owned chunks
     *     are read with lent ones from the shared pool for their chunk size
     * @return a cold {@code Flux}: each subscriber reads the file anew; each buffer must be released
     *     ({@code DataBufferUtils.release}) once used, as Spring's codecs and servers do; a missing
     *     or unreadable file or a directory arrives as {@code onError}
     * @throws NullPointerException if an argument is {@code null}
     */
    public static Flux<DataBuffer> read(Path file, DataBufferFactory factory, ReadOptions options) {
        ReactiveFile source = ReactiveFile.of(file);
        Objects.requireNonNull(factory, "factory");
        Objects.requireNonNull(options, "options");
        ReadOptions lent = options.lentChunks() ? options : options.withLentChunks();
        Flux<ByteBuffer> chunks = Flux.from(source.read(lent));
        if (NETTY_PRESENT && factory instanceof NettyDataBufferFactory netty) {
            return chunks.map(chunk -> LentChunkByteBuf.of(netty, chunk));
        }
        return chunks.map(LentChunkBuffer::of);
    }

    private static <T> Mono<T> started(Function<ContextView, ? extends CompletionStage<T>> write) {
        // Not suppressing cancel: cancelling the subscription cancels sluice's stage, which stops
        // the write, closes its target and cancels the source. The source is subscribed with the
        // context of the subscriber here, as Spring's DataBufferUtils.write subscribes it.
        return Mono.deferContextual(
                context -> Mono.fromFuture(() -> write.apply(context).toCompletableFuture(), false));
    }
}
