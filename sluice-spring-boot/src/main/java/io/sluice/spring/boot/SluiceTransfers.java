package io.sluice.spring.boot;

import io.sluice.ReactiveFile;
import io.sluice.ReadOptions;
import io.sluice.WriteListener;
import io.sluice.WriteOptions;
import io.sluice.WriteSnapshot;
import io.sluice.spring.DataBufferFiles;
import org.reactivestreams.Publisher;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * {@link DataBufferFiles} with the application's configured options, each transfer observed: the
 * bean a WebFlux handler injects to write a request body to a file, store an upload, serve a file
 * or copy one.
 *
 * <pre>{@code
 * @PutMapping("/raw/{name}")
 * Mono<Long> put(@PathVariable String name, ServerHttpRequest request) {
 *     return transfers.upload(request.getBody(), storage.resolve(name));       // atomic by default
 * }
 * @GetMapping("/files/{name}")
 * Mono<Void> get(@PathVariable String name, ServerHttpResponse response) {
 *     return response.writeWith(transfers.read(storage.resolve(name), response.bufferFactory()));
 * }
 * }</pre>
 *
 * <p>Three sets of options: {@link #readOptions()} (the {@code ChunkPool} bean, {@code sluice.pool.*}),
 * {@link #writeOptions()} ({@code sluice.write.*}) and {@link #uploadOptions()}, the write options
 * with atomic replace unless {@code sluice.upload.atomic-replace=false}: an upload is a write whose
 * bytes come from a client, who may go away half-way, so by default it leaves either the whole file
 * or nothing under the target's name.
 *
 * <p>Each subscription is one transfer, passed through every {@link TransferObserver} (Micrometer's
 * meters and an {@code Observation} when the auto-configuration found their registries). With no
 * observer the methods return what {@code DataBufferFiles} returns, adding nothing.
 *
 * <p><b>Threading, Backpressure, Resources:</b> as {@link DataBufferFiles}: cold publishers, the
 * transfer on the options' executor, each written buffer released once, each read buffer the
 * consumer's to release. An observed write runs with a {@link WriteListener} of its own that counts
 * its bytes and then calls the options' listener, if any.
 *
 * <p><b>Errors:</b> as {@link DataBufferFiles}: a {@code null} argument throws
 * {@link NullPointerException} at the call, anything else reaches the subscriber as {@code onError}.
 */
public final class SluiceTransfers {

    private final ReadOptions readOptions;
    private final WriteOptions writeOptions;
    private final WriteOptions uploadOptions;
    private final List<TransferObserver> observers; // outermost first

    /**
     * Transfers with these defaults and observers.
     *
     * @param readOptions the options of {@link #read(Path, DataBufferFactory)}
     * @param writeOptions the options of {@link #write(Publisher, Path)} and {@link #copy(Path, Path)}
     * @param uploadOptions the options of {@link #upload(Publisher, Path)} and of {@link SluiceFileParts}
     * @param observers applied to every transfer, the first outermost; may be empty
     * @throws NullPointerException if an argument is {@code null}
     */
    public SluiceTransfers(
            ReadOptions readOptions,
            WriteOptions writeOptions,
            WriteOptions uploadOptions,
            List<? extends TransferObserver> observers) {
        this.readOptions = Objects.requireNonNull(readOptions, "readOptions");
        this.writeOptions = Objects.requireNonNull(writeOptions, "writeOptions");
        this.uploadOptions = Objects.requireNonNull(uploadOptions, "uploadOptions");
        this.observers = List.copyOf(observers);
    }

    /**
     * The default read options.
     *
     * @return the options reads use unless given others
     */
    public ReadOptions readOptions() {
        return readOptions;
    }

    /**
     * The default write options.
     *
     * @return the options writes and copies use unless given others
     */
    public WriteOptions writeOptions() {
        return writeOptions;
    }

    /**
     * The upload options.
     *
     * @return the options of {@link #upload(Publisher, Path)} and {@link SluiceFileParts}
     */
    public WriteOptions uploadOptions() {
        return uploadOptions;
    }

    /**
     * Writes {@code source} to {@code target} with {@link #writeOptions()}.
     *
     * @param source the bytes to write; each buffer is released once its bytes are written
     * @param target the file to write
     * @return a cold {@code Mono} of the number of bytes written; see
     *     {@link DataBufferFiles#write(Publisher, Path, WriteOptions)}
     * @throws NullPointerException if an argument is {@code null}
     */
    public Mono<Long> write(Publisher<? extends DataBuffer> source, Path target) {
        return write(source, target, writeOptions);
    }

    /**
     * Writes {@code source} to {@code target} with {@code options}, observed.
     *
     * @param source the bytes to write; each buffer is released once its bytes are written, or
     *     when the write ends without them
     * @param target the file to write
     * @param options how to write it
     * @return a cold {@code Mono} of the number of bytes written; see
     *     {@link DataBufferFiles#write(Publisher, Path, WriteOptions)}
     * @throws NullPointerException if an argument is {@code null}
     */
    public Mono<Long> write(Publisher<? extends DataBuffer> source, Path target, WriteOptions options) {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(options, "options");
        return observedCount(
                Transfer.Kind.WRITE,
                target,
                transfer -> DataBufferFiles.write(source, target, tracked(options, transfer, true)));
    }

    /**
     * Writes an upload's {@code body} to {@code target} with {@link #uploadOptions()}: by default
     * through a temporary file renamed over the target once complete, so a client that goes away,
     * or a failed write, leaves nothing under the target's name.
     *
     * @param body the bytes uploaded; each buffer is released once its bytes are written, or when
     *     the write ends without them
     * @param target the file to write
     * @return a cold {@code Mono} of the number of bytes written
     * @throws NullPointerException if an argument is {@code null}
     */
    public Mono<Long> upload(Publisher<? extends DataBuffer> body, Path target) {
        return write(body, target, uploadOptions);
    }

    /**
     * {@code file} as pooled buffers of {@code factory}'s kind, with {@link #readOptions()}.
     *
     * @param file the file to read
     * @param factory the factory of the buffers' consumer, {@code response.bufferFactory()} in WebFlux
     * @return a cold {@code Flux} of pooled buffers: release each one; see
     *     {@link DataBufferFiles#read(Path, DataBufferFactory, ReadOptions)}
     * @throws NullPointerException if an argument is {@code null}
     */
    public Flux<DataBuffer> read(Path file, DataBufferFactory factory) {
        return read(file, factory, readOptions);
    }

    /**
     * {@code length} bytes of {@code file} from {@code offset}, with {@link #readOptions()}: a
     * {@code Range} request's part.
     *
     * @param file the file to read
     * @param factory the factory of the buffers' consumer
     * @param offset the first byte, at least 0; a range starting at or past the end is empty
     * @param length the most bytes, at least 0
     * @return a cold {@code Flux} of pooled buffers: release each one
     * @throws NullPointerException if an argument is {@code null}
     * @throws IllegalArgumentException if {@code offset} or {@code length} is negative
     */
    public Flux<DataBuffer> read(Path file, DataBufferFactory factory, long offset, long length) {
        return read(file, factory, readOptions.withRange(offset, length));
    }

    /**
     * {@code file}, or the options' range of it, as pooled buffers of {@code factory}'s kind,
     * observed.
     *
     * @param file the file to read
     * @param factory the factory of the buffers' consumer
     * @param options chunk size, range, executor and pool of the read
     * @return a cold {@code Flux} of pooled buffers: release each one; see
     *     {@link DataBufferFiles#read(Path, DataBufferFactory, ReadOptions)}
     * @throws NullPointerException if an argument is {@code null}
     */
    public Flux<DataBuffer> read(Path file, DataBufferFactory factory, ReadOptions options) {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(factory, "factory");
        Objects.requireNonNull(options, "options");
        if (observers.isEmpty()) {
            return DataBufferFiles.read(file, factory, options);
        }
        return observed(
                Transfer.Kind.READ,
                file,
                transfer -> DataBufferFiles.read(file, factory, options)
                        .doOnNext(buffer -> transfer.addBytes(buffer.readableByteCount())));
    }

    /**
     * Copies {@code source} to {@code target} with {@link #writeOptions()}.
     *
     * @param source the file to copy
     * @param target the file to write
     * @return a cold {@code Mono} of the number of bytes copied
     * @throws NullPointerException if an argument is {@code null}
     */
    public Mono<Long> copy(Path source, Path target) {
        return copy(source, target, writeOptions);
    }

    /**
     * Copies {@code source} to {@code target} with {@code options}, zero-copy
     * ({@link ReactiveFile#copyTo(Path, WriteOptions)}), observed.
     *
     * @param source the file to copy
     * @param target the file to write
     * @param options open mode, sync, atomic replace and executor of the copy
     * @return a cold {@code Mono}: subscribing starts the copy, which emits the number of bytes
     *     copied, or the first error; cancelling the subscription cancels the copy and closes both
     *     files
     * @throws NullPointerException if an argument is {@code null}
     */
    public Mono<Long> copy(Path source, Path target, WriteOptions options) {
        ReactiveFile file = ReactiveFile.of(source);
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(options, "options");
        return observedCount(
                Transfer.Kind.COPY,
                target,
                transfer -> Mono.fromFuture(() -> file.copyTo(target, options).toCompletableFuture(), false));
    }

    /** Whether any observer is applied: without one, transfers go as DataBufferFiles makes them. */
    boolean observed() {
        return !observers.isEmpty();
    }

    /** A transfer that completes with its byte count, which becomes the transfer's bytes. */
    Mono<Long> observedCount(Transfer.Kind kind, Path file, Function<Transfer, Mono<Long>> start) {
        if (observers.isEmpty()) {
            return start.apply(null);
        }
        // fromDirect, not from: Mono.from would cancel the observed Flux after its one item, which
        // observers would count as a cancelled transfer.
        return Mono.fromDirect(observed(
                kind,
                file,
                transfer -> start.apply(transfer).doOnNext(transfer::bytes).flux()));
    }

    /** One Transfer per subscription, its Flux wrapped by every observer, the first outermost. */
    <T> Flux<T> observed(Transfer.Kind kind, Path file, Function<Transfer, Flux<T>> start) {
        return Flux.defer(() -> {
            Transfer transfer = new Transfer(kind, file);
            Flux<T> signals = start.apply(transfer);
            for (int i = observers.size() - 1; i >= 0; i--) {
                signals = observers.get(i).observe(transfer, signals);
            }
            return signals;
        });
    }

    /**
     * {@code options} with a listener that counts into {@code transfer} (a write's bytes when
     * {@code countBytes}, its larger items) and then calls the options' own listener; the options
     * as they are when nothing observes.
     */
    static WriteOptions tracked(WriteOptions options, Transfer transfer, boolean countBytes) {
        if (transfer == null) {
            return options;
        }
        WriteListener own = options.listener();
        return options.withListener(new WriteListener() {
            @Override
            public void onPass(WriteSnapshot snapshot) {
                if (countBytes) {
                    transfer.bytes(snapshot.writtenBytes());
                }
                if (own != null) {
                    own.onPass(snapshot);
                }
            }

            @Override
            public void onLargerItem(long itemBytes, long previousLargestBytes, long outstandingItems) {
                transfer.largerItem();
                if (own != null) {
                    own.onLargerItem(itemBytes, previousLargestBytes, outstandingItems);
                }
            }
        });
    }
}
