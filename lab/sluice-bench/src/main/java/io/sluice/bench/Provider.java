package io.sluice.bench;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

/**
 * One library (or plain-JDK loop) under test, used as that library's users would use it. Every
 * method starts one operation and returns at once; the future completes once the operation is done
 * (for writes: the file is closed). The harness starts {@code parallelism} operations before waiting.
 */
public interface Provider extends AutoCloseable {

    /** The row label, e.g. {@code sluice} or {@code loop-gather}. */
    String name();

    boolean supports(Op op);

    /** Starts {@code op}; {@code source} is set for reads and copies, {@code target} for writes and copies. */
    default CompletableFuture<?> start(Op op, Path source, Path target, long sizeBytes) {
        return switch (op) {
            case WRITE, WRITE_SYNC -> write(target, Payload.chunks(sizeBytes), op == Op.WRITE_SYNC);
            case READ -> read(source, sizeBytes);
            case COPY -> copy(source, target);
        };
    }

    /** Writes {@code chunks} fresh 1 KiB chunks to {@code target}; forces before completing when {@code sync}. */
    default CompletableFuture<?> write(Path target, long chunks, boolean sync) {
        throw new UnsupportedOperationException(name() + " does not write");
    }

    /** Reads {@code source} to its end, checking the bytes with a {@link ReadCheck}. */
    default CompletableFuture<?> read(Path source, long sizeBytes) {
        throw new UnsupportedOperationException(name() + " does not read");
    }

    /** Copies {@code source} to {@code target}. */
    default CompletableFuture<?> copy(Path source, Path target) {
        throw new UnsupportedOperationException(name() + " does not copy");
    }

    /** Releases threads and event loops the provider created; the default has none. */
    @Override
    default void close() {}
}
