package io.sluice.internal.read;

import io.sluice.BytePublisher;
import org.reactivestreams.Subscriber;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * A publisher of byte chunks: each subscriber gets its own {@link ReadSubscription}, which opens
 * its own source on the first request. Built once per user call; {@code subscribe} may be called
 * from any thread.
 */
public final class ChannelPublisher implements BytePublisher {

    private final ReadSource.Opener opener; // called by each read's drain; a ReadSource.Check too if there is one
    private final ChunkSupply supply;
    private final Executor executor;
    private final String description;
    private final Closeable singleUseResource; // handed to the first read, which closes it (R4); null: cold source
    private final AtomicBoolean subscribedOnce; // any subscribing thread; null: cold source

    private ChannelPublisher(
            ReadSource.Opener opener,
            ReadSource.Check check,
            ChunkSupply supply,
            Executor executor,
            String description,
            Closeable singleUseResource) {
        this.opener = check == null ? opener : new CheckedOpener(opener, check);
        this.supply = supply;
        this.executor = executor;
        this.description = description;
        this.singleUseResource = singleUseResource;
        this.subscribedOnce = singleUseResource != null ? new AtomicBoolean() : null;
    }

    /**
     * A publisher whose every subscriber opens the source anew; an opener that is itself a
     * {@link ReadSource.Check} has its check run first (R8 in {@link ReadSubscription}).
     */
    public static ChannelPublisher cold(
            ReadSource.Opener opener, ChunkSupply supply, Executor executor, String description) {
        return new ChannelPublisher(opener, null, supply, executor, description, null);
    }

    /**
     * A publisher whose every subscriber opens the source anew, after its read has run
     * {@code check} without waiting for a request (R8 in {@link ReadSubscription}).
     */
    public static ChannelPublisher cold(
            ReadSource.Opener opener,
            ReadSource.Check check,
            ChunkSupply supply,
            Executor executor,
            String description) {
        return new ChannelPublisher(
                opener, Objects.requireNonNull(check, "check"), supply, executor, description, null);
    }

    /**
     * A publisher over a source that can be read once (a channel or stream the user opened): a
     * second subscriber's read fails its check, so it gets {@code onError} without having to
     * request (§1.11; R8 in {@link ReadSubscription}). The first subscriber's read closes
     * {@code resource} however it ends, even before its first request (R4).
     *
     * @param opener wraps {@code resource} in a source, at the first request
     * @param resource the user's channel or stream, which the library now owns
     */
    public static ChannelPublisher singleUse(
            ReadSource.Opener opener, Closeable resource, ChunkSupply supply, Executor executor, String description) {
        return new ChannelPublisher(
                opener, null, supply, executor, description, Objects.requireNonNull(resource, "resource"));
    }

    @Override
    public void subscribe(Subscriber<? super ByteBuffer> subscriber) {
        Objects.requireNonNull(subscriber, "§1.9: subscriber must not be null");
        ReadSource.Opener source = opener;
        Closeable owned = singleUseResource;
        if (subscribedOnce != null && !subscribedOnce.compareAndSet(false, true)) {
            owned = null; // the first subscriber's, not ours to close
            source = new AlreadyRead(description); // §1.9: refused with onError after onSubscribe
        }
        new ReadSubscription(subscriber, source, owned, supply, executor).start();
    }

    /** An opener and the check its reads run first (R8 in {@link ReadSubscription}). */
    private record CheckedOpener(ReadSource.Opener opener, ReadSource.Check precondition)
            implements ReadSource.Opener, ReadSource.Check {

        @Override
        public ReadSource open(BooleanSupplier cancelled) throws IOException {
            return opener.open(cancelled);
        }

        @Override
        public void check() throws IOException {
            precondition.check();
        }
    }

    /** A single-use source's second subscriber's: its check refuses the read (§1.11), nothing opens. */
    private record AlreadyRead(String description) implements ReadSource.Opener, ReadSource.Check {

        @Override
        public void check() {
            throw new IllegalStateException("§1.11: " + description + " can be read once and already has a subscriber");
        }

        @Override
        public ReadSource open(BooleanSupplier cancelled) {
            throw new IllegalStateException(
                    "§1.11: " + description + " was already read"); // never: the check fails first
        }
    }

    @Override
    public String toString() {
        return "ChannelPublisher[" + description + ", " + supply + "]";
    }
}
