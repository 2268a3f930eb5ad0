package io.sluice.internal.read;

import io.sluice.BytePublisher;
import org.reactivestreams.Subscriber;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * The cold publisher of a file's range: each subscriber gets its own {@link ReadSubscription},
 * which checks the file as soon as it subscribes and opens it on the first request (R3, R8). It
 * is its own {@link FileReadSource.Range}, the opener and check of every read, so that a read
 * made per call (as {@code ReactiveFile.of(path).read()} is) costs one object for the publisher
 * and its range. Immutable; {@code subscribe} may be called from any thread.
 */
public final class FileRangePublisher extends FileReadSource.Range implements BytePublisher {

    private final ChunkSupply supply;
    private final Executor executor;

    /** {@code length} bytes of {@code path} from {@code offset}, in {@code supply}'s chunks; with {@code exact}, no fewer. */
    public FileRangePublisher(
            Path path, long offset, long length, boolean exact, ChunkSupply supply, Executor executor) {
        super(path, offset, length, exact);
        this.supply = supply;
        this.executor = executor;
    }

    @Override
    public void subscribe(Subscriber<? super ByteBuffer> subscriber) {
        Objects.requireNonNull(subscriber, "§1.9: subscriber must not be null");
        new ReadSubscription(subscriber, this, null, supply, executor).start(); // its own opener and check (R8)
    }

    @Override
    public String toString() {
        return "FileRangePublisher[" + path() + ", " + supply + "]";
    }
}
