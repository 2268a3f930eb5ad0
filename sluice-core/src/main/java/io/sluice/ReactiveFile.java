package io.sluice;

import io.sluice.internal.write.AtomicTemporaries;
import io.sluice.internal.write.Writes;
import org.reactivestreams.Publisher;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A file as a reactive source and target. Cheap to create: it opens nothing until an operation
 * runs.
 *
 * <pre>{@code
 * ReactiveFile file = ReactiveFile.of(path);
 * Publisher<ByteBuffer> chunks = file.read();                       // 64 KiB chunks
 * CompletionStage<Long> written = ReactiveFile.of(copy).write(Flux.from(chunks));
 * CompletionStage<Long> copied = file.copyTo(other);                 // zero-copy transferTo
 * }</pre>
 *
 * <p>Example: {@code FileDigests} (sluice-examples/src/main/java/io/sluice/examples/FileDigests.java),
 * the SHA-256 of a file of any size with Reactor, reading only as fast as the digest consumes:
 * <pre>{@code
 * public static Mono<byte[]> sha256WithReactor(Path file) {
 *     return Flux.from(ReactiveFile.of(file).read())
 *             .reduceWith(FileDigests::newSha256, FileDigests::update)
 *             .map(MessageDigest::digest);
 * }
 * }</pre>
 * The same directory holds more tested examples, quoted by the README and docs/USING.md; its
 * {@code package-info} lists those for each library and JDK API.
 *
 * <p><b>Threading:</b> operations run on {@link IoExecutors#files()} unless the options name an
 * executor; the upstream publisher of a write is subscribed on the calling thread. Instances are
 * immutable and thread-safe.
 *
 * <p><b>Backpressure:</b> reads read only what is requested; writes request from upstream with
 * their {@link io.sluice.demand.DemandStrategy} (adaptive by default) and hold at most the
 * strategy's window of items and the bytes {@link WriteOptions} states.
 *
 * <p><b>Resources:</b> every operation opens its own channel on the executor and closes it before
 * its stage completes, whichever way it ends. A write takes each {@code ByteBuffer} from its
 * position to its limit, and a buffer passed to its {@code onNext} belongs to the writer until the
 * write's stage completes: do not change or reuse it before then, or the changed bytes may be
 * written.
 *
 * <p><b>Cancel:</b> completing a returned stage from outside ({@code cancel}, {@code complete},
 * {@code completeExceptionally}, {@code completeAsync}, {@code orTimeout},
 * {@code completeOnTimeout}) stops the operation on the completing thread before the stage
 * completes: the file is closed (a copy closes both files at once, mid-slice) before any dependent
 * of the stage runs, and no byte of the operation reaches the file once {@code cancel} has
 * returned, not even an open that had not started (nothing is then created or truncated); an atomic
 * write deletes its temporary file; a copy, plain or atomic, closes its source too. The close waits
 * for the one system call in flight on the file, so {@code cancel} can block for as long as an
 * {@code fsync} in progress. An open in flight is waited for at most 50 ms: one that does not
 * return (a hung network mount) is left to return on its own thread, and what it opens is closed
 * the moment it does, with nothing read or written through it (it may have created or truncated
 * the file it opened). {@code orTimeout} and {@code completeOnTimeout} run the abort on sluice's
 * own threads, never on the JDK's shared delayer thread. The upstream is cancelled afterwards,
 * from the write's drain (§2.7). A completion from outside loses
 * ({@code cancel} returns {@code false}) once the operation has completed or a write has claimed
 * its end (every byte written and, with sync, forced; an atomic write's rename).
 *
 * <p><b>Errors:</b> bad arguments throw at the call ({@link NullPointerException},
 * {@link IllegalArgumentException}); anything after that fails the stage, or reaches the
 * subscriber as {@code onError}, with the original exception ({@code NoSuchFileException},
 * {@code AccessDeniedException}, an {@code IOException} for a full disk ...).
 *
 * <p><b>Regular files only:</b> a read's file, a copy's source, and a write's or copy's target if
 * it exists must be regular files (symbolic links are followed). A directory, FIFO, socket or
 * device is refused before it is opened, with a {@link java.nio.file.FileSystemException} naming
 * the path and what it is; an atomic replace never renames a file over such a node. Opening a FIFO
 * waits for its peer, and none of them has a size or positions to read at: for pipes and devices,
 * open the channel yourself and use {@link ByteChannels}.
 */
public final class ReactiveFile {

    private final Path path;

    private ReactiveFile(Path path) {
        this.path = path;
    }

    /**
     * The file at {@code path}; nothing is opened or checked yet.
     *
     * @param path the file to read or write; it need not exist yet
     * @return a file handle for {@code path}
     * @throws NullPointerException if {@code path} is {@code null}
     */
    public static ReactiveFile of(Path path) {
        return new ReactiveFile(Objects.requireNonNull(path, "path"));
    }

    /**
     * The path this instance reads and writes.
     *
     * @return the path given to {@link #of(Path)}, unchanged
     */
    public Path path() {
        return path;
    }

    /**
     * The whole file in 64 KiB chunks, on {@link IoExecutors#files()}; as {@link #read(ReadOptions)}
     * with {@link ReadOptions#defaults()}.
     *
     * @return a cold publisher of the file's bytes
     */
    public BytePublisher read() {
        return read(ReadOptions.defaults());
    }

    /**
     * The file (or the options' range of it) in the options' chunks; cold: each subscriber opens
     * the file anew and reads it from the start of the range. The file's size is taken when a
     * subscriber opens it: bytes appended later are not read, and a range starting at or beyond
     * the end yields no chunks.
     *
     * @param options chunk size, range and executor of the read
     * @return a cold publisher of the file's bytes; a missing, unreadable file or a directory
     *     reaches each subscriber as {@code onError} ({@code NoSuchFileException},
     *     {@code AccessDeniedException}, {@code IOException})
     * @throws NullPointerException if {@code options} is {@code null}
     */
    public BytePublisher read(ReadOptions options) {
        return FileOperations.read(path, Objects.requireNonNull(options, "options"));
    }

    /**
     * Writes {@code publisher}'s bytes, creating or truncating the file; completes with the byte
     * count. As {@link #write(Publisher, WriteOptions)} with {@link WriteOptions#defaults()}.
     *
     * @param publisher the bytes to write (its buffers: see Resources above)
     * @return the stage {@link #write(Publisher, WriteOptions)} returns
     * @throws NullPointerException if {@code publisher} is {@code null}
     */
    public CompletionStage<Long> write(Publisher<? extends ByteBuffer> publisher) {
        return write(publisher, WriteOptions.defaults());
    }

    /**
     * Writes {@code publisher}'s bytes as {@code options} say; completes with the byte count.
     *
     * @param publisher the bytes to write (its buffers: see Resources above)
     * @param options open mode, demand strategy, byte cap, sync, atomic replace, executor and
     *     listener of the write; without an executor, a sync write's final force, commit and close
     *     run on {@link IoExecutors#blocking()}, so a slow {@code fsync} never holds a file-pool thread
     * @return a stage completing with the number of bytes written once the file is closed (and
     *     forced, with sync), or failing with the upstream's or the file system's exception (an
     *     upstream that fails gets every item it sent before {@code onError} written first, then
     *     the stage fails with its very exception; an atomic write keeps the old content);
     *     cancelling it closes the file before the stage completes (see Cancel above). A write has
     *     no timeout of its own: a publisher that never calls {@code onSubscribe} leaves the stage
     *     pending for ever, and only the caller ends it, e.g. with
     *     {@code toCompletableFuture().orTimeout(30, TimeUnit.SECONDS)}, which aborts the write as
     *     {@code cancel} does; the file is opened only after {@code onSubscribe}, so nothing is then
     *     created
     * @throws NullPointerException if {@code publisher} or {@code options} is {@code null}
     * @throws IllegalArgumentException if {@code options} combine
     *     {@link WriteOptions#withAtomicReplace()} with {@link WriteMode#APPEND}
     */
    public CompletionStage<Long> write(Publisher<? extends ByteBuffer> publisher, WriteOptions options) {
        return FileOperations.write(path, publisher, Objects.requireNonNull(options, "options"));
    }

    /**
     * Writes a {@link Flow.Publisher}'s bytes, creating or truncating the file; as
     * {@link #write(Flow.Publisher, WriteOptions)} with {@link WriteOptions#defaults()}.
     *
     * @param publisher the bytes to write, adapted with {@code FlowAdapters} (its buffers: see
     *     Resources above)
     * @return the stage {@link #write(Publisher, WriteOptions)} returns
     * @throws NullPointerException if {@code publisher} is {@code null}
     */
    public CompletionStage<Long> write(Flow.Publisher<? extends ByteBuffer> publisher) {
        return write(publisher, WriteOptions.defaults());
    }

    /**
     * Writes a {@link Flow.Publisher}'s bytes as {@code options} say; as
     * {@link #write(Publisher, WriteOptions)}.
     *
     * @param publisher the bytes to write, adapted with {@code FlowAdapters} (its buffers: see
     *     Resources above)
     * @param options the write's options, as {@link #write(Publisher, WriteOptions)} takes them
     * @return the stage {@link #write(Publisher, WriteOptions)} returns
     * @throws NullPointerException if {@code publisher} or {@code options} is {@code null}
     * @throws IllegalArgumentException as {@link #write(Publisher, WriteOptions)} throws it
     */
    public CompletionStage<Long> write(Flow.Publisher<? extends ByteBuffer> publisher, WriteOptions options) {
        return write(Writes.fromFlow(publisher), options);
    }

    /**
     * Writes one of this library's publishers (both kinds at once), creating or truncating the file;
     * this overload only resolves the ambiguity of a {@link BytePublisher}.
     *
     * @param publisher the bytes to write, for example another file's {@link #read()}
     * @return the stage {@link #write(Publisher, WriteOptions)} returns
     * @throws NullPointerException if {@code publisher} is {@code null}
     */
    public CompletionStage<Long> write(BytePublisher publisher) {
        return write((Publisher<ByteBuffer>) publisher, WriteOptions.defaults());
    }

    /**
     * Writes one of this library's publishers as {@code options} say; as
     * {@link #write(Publisher, WriteOptions)}.
     *
     * @param publisher the bytes to write, for example another file's {@link #read()}
     * @param options the write's options, as {@link #write(Publisher, WriteOptions)} takes them
     * @return the stage {@link #write(Publisher, WriteOptions)} returns
     * @throws NullPointerException if {@code publisher} or {@code options} is {@code null}
     * @throws IllegalArgumentException as {@link #write(Publisher, WriteOptions)} throws it
     */
    public CompletionStage<Long> write(BytePublisher publisher, WriteOptions options) {
        return write((Publisher<ByteBuffer>) publisher, options);
    }

    /**
     * Copies this file to {@code target}, created or truncated; completes with the byte count. As
     * {@link #copyTo(Path, WriteOptions)} with {@link WriteOptions#defaults()}.
     *
     * @param target the file to copy to; created, or truncated if it exists
     * @return the stage {@link #copyTo(Path, WriteOptions)} returns
     * @throws NullPointerException if {@code target} is {@code null}
     */
    public CompletionStage<Long> copyTo(Path target) {
        return copyTo(target, WriteOptions.defaults());
    }

    /**
     * Copies this file to {@code target} with {@code transferTo} in 8 MiB slices, opened in
     * {@code options.mode()}, forced with {@code options.sync()}, on {@code options.executor()}.
     * Demand options do not apply: no data passes through the heap. With
     * {@link WriteOptions#withAtomicReplace()} the copy is a {@link #read()} of this file written
     * atomically to {@code target} (through the heap, with the options' demand), so that the target
     * is replaced whole or not at all.
     *
     * @param target the file to copy to, opened in {@code options.mode()}; if it is this file
     *     itself (and the copy is not atomic), the stage fails with a {@code FileSystemException}
     *     and nothing is truncated
     * @param options open mode, sync, atomic replace and executor of the copy
     * @return a stage completing with the number of bytes copied once both files are closed (and
     *     the target forced, with sync), or failing with the file system's exception
     *     ({@code NoSuchFileException} for a missing source, {@code FileAlreadyExistsException} for
     *     an existing target with {@link WriteMode#CREATE_NEW} ...); cancelling it closes both
     *     files before the stage completes (see Cancel above)
     * @throws NullPointerException if {@code target} or {@code options} is {@code null}
     * @throws IllegalArgumentException as {@link #write(Publisher, WriteOptions)} throws it
     */
    public CompletionStage<Long> copyTo(Path target, WriteOptions options) {
        Objects.requireNonNull(target, "target");
        return FileOperations.copy(path, target, Objects.requireNonNull(options, "options"));
    }

    /**
     * Deletes the temporary files that {@link WriteOptions#withAtomicReplace() atomic writes} into
     * {@code directory} left behind because their process died (a failed or cancelled write deletes
     * its own). Only entries directly in {@code directory} named exactly {@code .sluice-} + 32
     * lowercase hex digits + {@code .tmp} that are regular files or symbolic links are deleted (a
     * link is deleted, never followed); nothing else is touched.
     *
     * <p>Safe to call at any time: an atomic write still running into {@code directory} whose
     * temporary file this deletes fails with a {@code NoSuchFileException} when it commits and
     * leaves its target untouched. To spare running writes, use
     * {@link #removeStaleTemporaries(Path, Duration)} with an age longer than any write takes.
     *
     * @param directory the directory whose entries are examined (not recursively), typically the
     *     parent of an atomic write's target
     * @return how many files were deleted
     * @throws NullPointerException if {@code directory} is {@code null}
     * @throws IOException if the directory cannot be listed or a file cannot be deleted; files
     *     that could be deleted are deleted first, and further failures are attached as suppressed
     */
    public static int removeStaleTemporaries(Path directory) throws IOException {
        return AtomicTemporaries.removeStale(directory, Duration.ZERO);
    }

    /**
     * As {@link #removeStaleTemporaries(Path)}, deleting only files last modified at least
     * {@code minimumAge} ago.
     *
     * @param directory the directory whose entries are examined (not recursively)
     * @param minimumAge how long ago a temporary file must have been last modified to be deleted;
     *     {@link Duration#ZERO} deletes all of them
     * @return how many files were deleted
     * @throws NullPointerException if {@code directory} or {@code minimumAge} is {@code null}
     * @throws IllegalArgumentException if {@code minimumAge} is negative
     * @throws IOException as {@link #removeStaleTemporaries(Path)} throws it
     */
    public static int removeStaleTemporaries(Path directory, Duration minimumAge) throws IOException {
        return AtomicTemporaries.removeStale(directory, minimumAge);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ReactiveFile && ((ReactiveFile) other).path.equals(path);
    }

    @Override
    public int hashCode() {
        return path.hashCode();
    }

    @Override
    public String toString() {
        return "ReactiveFile[" + path + "]";
    }
}
