package io.sluice.bench.providers;

import io.sluice.ChunkPool;
import io.sluice.ReactiveFile;
import io.sluice.ReadOptions;
import io.sluice.WriteOptions;
import io.sluice.bench.ChunkPublisher;
import io.sluice.bench.DiscardingSubscriber;
import io.sluice.bench.Op;
import io.sluice.bench.Provider;
import io.sluice.bench.ReadCheck;
import org.reactivestreams.Subscriber;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

/**
 * sluice as its README shows it: {@code ReactiveFile.of(path).write(publisher)}, {@code read()},
 * {@code copyTo(target)}; or, for the demand scenario, with other {@link WriteOptions}; or with other
 * {@link ReadOptions} (lent chunks, given back by the read's check or by the copy's writer; owned
 * chunks of other sizes).
 */
public final class SluiceProvider implements Provider {

    /** How the provider copies. */
    public enum CopyMode {
        /** {@code copyTo}: {@code transferTo} slices, what a sluice user would call. */
        COPY_TO,
        /** {@code write(read())}: the generic reactive pipeline, with the provider's read options. */
        READ_WRITE,
        /** No copy row (write-only scenario providers). */
        NONE,
        /** Neither copy nor write rows: a read-only variant. */
        READ_ONLY
    }

    private final String name;
    private final WriteOptions options;
    private final ReadOptions reading;
    private final CopyMode copyMode;
    private final boolean reads;

    public SluiceProvider(String name, WriteOptions options, CopyMode copyMode, boolean reads) {
        this(name, options, ReadOptions.defaults(), copyMode, reads);
    }

    public SluiceProvider(String name, WriteOptions options, ReadOptions reading, CopyMode copyMode, boolean reads) {
        this.name = name;
        this.options = options;
        this.reading = reading;
        this.copyMode = copyMode;
        this.reads = reads;
    }

    /** Default options for every operation. */
    public static SluiceProvider defaults() {
        return new SluiceProvider("sluice", WriteOptions.defaults(), CopyMode.COPY_TO, true);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean supports(Op op) {
        switch (op) {
            case WRITE:
                return copyMode != CopyMode.READ_WRITE && copyMode != CopyMode.READ_ONLY;
            case WRITE_SYNC:
                return copyMode == CopyMode.COPY_TO;
            case READ:
                return reads;
            case COPY:
                return copyMode != CopyMode.NONE && copyMode != CopyMode.READ_ONLY;
            default:
                return false;
        }
    }

    @Override
    public CompletableFuture<?> write(Path target, long chunks, boolean sync) {
        return ReactiveFile.of(target)
                .write(ChunkPublisher.of(chunks), sync ? options.withSync() : options)
                .toCompletableFuture();
    }

    @Override
    public CompletableFuture<?> read(Path source, long sizeBytes) {
        ReadCheck check = new ReadCheck(sizeBytes);
        DiscardingSubscriber<ByteBuffer> sink = reading.lentChunks()
                ? new DiscardingSubscriber<>(chunk -> {
                    check.accept(chunk);
                    ChunkPool.giveBack(chunk);
                })
                : new DiscardingSubscriber<>(check::accept);
        ReactiveFile.of(source).read(reading).subscribe((Subscriber<ByteBuffer>) sink);
        return sink.done().thenApply(ignored -> check.finish());
    }

    @Override
    public CompletableFuture<?> copy(Path source, Path target) {
        if (copyMode == CopyMode.COPY_TO) {
            return ReactiveFile.of(source).copyTo(target, options).toCompletableFuture();
        }
        return ReactiveFile.of(target).write(ReactiveFile.of(source).read(reading), options).toCompletableFuture();
    }
}
