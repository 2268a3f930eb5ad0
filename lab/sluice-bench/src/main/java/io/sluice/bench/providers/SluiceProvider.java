package io.sluice.bench.providers;

import io.sluice.ChunkPool;
import io.sluice.ReactiveFile;
import io.sluice.ReadOptions;
import io.sluice.WriteOptions;
import io.sluice.bench.ChunkPublisher;
import io.sluice.bench.Op;
import io.sluice.bench.ReadCheck;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * sluice as its README shows it: {@code ReactiveFile.of(path).write(publisher)}, {@code read()},
 * {@code copyTo(target)}; or, for the scenarios, with other {@link WriteOptions} or {@link ReadOptions}
 * (lent chunks, given back by the read's check or by the copy's writer; owned chunks of other sizes),
 * copying as {@code write(read())}, the generic reactive pipeline.
 */
final class SluiceProvider extends NamedProvider {

    private final WriteOptions writing;
    private final ReadOptions reading;
    private final boolean copyTo; // copies with copyTo (transferTo slices), else as write(read())

    /** A scenario's variant: rows for {@code ops} only, copying with {@code copyTo} or as {@code write(read())}. */
    SluiceProvider(String name, Set<Op> ops, WriteOptions writing, ReadOptions reading, boolean copyTo) {
        super(name, ops);
        this.writing = writing;
        this.reading = reading;
        this.copyTo = copyTo;
    }

    @Override
    public CompletableFuture<?> write(Path target, long chunks, boolean sync) {
        return ReactiveFile.of(target)
                .write(ChunkPublisher.of(chunks), sync ? writing.withSync() : writing)
                .toCompletableFuture();
    }

    @Override
    public CompletableFuture<?> read(Path source, long sizeBytes) {
        Consumer<ByteBuffer> after = reading.lentChunks() ? ChunkPool::giveBack : chunk -> {};
        return new ReadCheck(sizeBytes).drain(ReactiveFile.of(source).read(reading), after);
    }

    @Override
    public CompletableFuture<?> copy(Path source, Path target) {
        return (copyTo
                        ? ReactiveFile.of(source).copyTo(target, writing)
                        : ReactiveFile.of(target).write(ReactiveFile.of(source).read(reading), writing))
                .toCompletableFuture();
    }
}
