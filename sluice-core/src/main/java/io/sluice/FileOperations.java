package io.sluice;

import io.sluice.internal.OperationFuture;
import io.sluice.internal.read.ChannelPublisher;
import io.sluice.internal.read.FileRangePublisher;
import io.sluice.internal.read.FileReadSource;
import io.sluice.internal.read.OutsideClosableSource;
import io.sluice.internal.write.AtomicFileSink;
import io.sluice.internal.write.FileCopy;
import io.sluice.internal.write.FileSink;
import io.sluice.internal.write.WriteSink;
import io.sluice.internal.write.Writes;
import org.reactivestreams.Publisher;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * The plumbing behind {@link ReactiveFile}: which internal publisher, sink or copy each operation
 * builds from its options. {@link ReactiveFile} states the contract and checks its arguments; the
 * operations here assume them checked and run on any thread (they only build and start).
 */
final class FileOperations {

    /** The chunk size of a copy through user space (an atomic copy): a quarter of the writer's cap. */
    private static final int COPY_CHUNK_BYTES = 256 * 1024;

    private FileOperations() {}

    /** A cold publisher of {@code path}'s bytes in the options' range and chunks. */
    static BytePublisher read(Path path, ReadOptions options) {
        return new FileRangePublisher(
                path,
                options.offset(),
                options.length(),
                options.exactRange(),
                options.chunkSupply(),
                executor(options.executor()));
    }

    private static FileReadSource.Range range(Path path, ReadOptions options) {
        return new FileReadSource.Range(path, options.offset(), options.length(), options.exactRange());
    }

    /** Starts writing {@code publisher} to {@code path}, through a temporary file with atomic replace. */
    static OperationFuture<Long> write(Path path, Publisher<? extends ByteBuffer> publisher, WriteOptions options) {
        WriteSink sink =
                options.atomicReplace() ? new AtomicFileSink(path, options.mode()) : new FileSink(path, options.mode());
        return Writes.start(publisher, sink, options, IoExecutors::files, IoExecutors::blocking, path.toString());
    }

    /**
     * Starts copying {@code source} to {@code target}: with {@code transferTo}, or with atomic
     * replace as a read of {@code source} written atomically, through the heap.
     */
    static CompletionStage<Long> copy(Path source, Path target, WriteOptions options) {
        if (options.atomicReplace()) {
            // lent chunks, which the writer gives back; large ones, since no subscriber holds them
            ReadOptions reading =
                    ReadOptions.defaults().withChunkSize(COPY_CHUNK_BYTES).withLentChunks();
            if (options.executor() != null) {
                reading = reading.withExecutor(options.executor());
            }
            // both files closed before the stage completes, whoever completes it: the source too
            OutsideClosableSource closable = new OutsideClosableSource();
            FileReadSource.Range range = range(source, reading);
            BytePublisher chunks = ChannelPublisher.cold(
                    closable.wrap(range, "copy of " + source),
                    range,
                    reading.chunkSupply(),
                    executor(reading.executor()),
                    source.toString());
            OperationFuture<Long> stage = write(target, chunks, options);
            stage.alsoOnAbort(closable::closeNow);
            return stage;
        }
        return new FileCopy(source, target, options.mode(), options.sync(), executor(options.executor())).start();
    }

    private static Executor executor(Executor chosen) {
        return chosen != null ? chosen : IoExecutors.files();
    }
}
