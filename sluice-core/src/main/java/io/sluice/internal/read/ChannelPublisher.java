package io.sluice.internal.read;

import io.sluice.BytePublisher;
import org.reactivestreams.Subscriber;

import java.io.Closeable;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A publisher of byte chunks: each subscriber gets its own {@link ReadSubscription}, which opens
 * its own source on the first request. Built once per user call; {@code subscribe} may be called
 * from any thread.
 */
public final class ChannelPublisher implements BytePublisher {

    private final ReadSource.Opener opener; // called by each read's drain
    private final ReadSource.Check check; // called by each read's drain; null: none
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
        this.opener = opener;
        this.check = check;
        this.supply = supply;
        this.executor = executor;
        this.description = description;
        this.singleUseResource = singleUseResource;
        this.subscribedOnce = singleUseResource != null ? new AtomicBoolean() : null;
    }

    /** A publisher whose every subscriber opens the source anew. */
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
        ReadSource.Check precondition = check;
        Closeable owned = singleUseResource;
        if (subscribedOnce != null && !subscribedOnce.compareAndSet(false, true)) {
            owned = null; // the first subscriber's, not ours to close
            precondition = () -> { // §1.9: refused with onError after onSubscribe
                throw new IllegalStateException(
                        "§1.11: " + description + " can be read once and already has a subscriber");
            };
            source = cancelled -> { // never reached: the check fails first
                throw new IllegalStateException("§1.11: " + description + " was already read");
            };
        }
        new ReadSubscription(subscriber, source, precondition, owned, supply, executor).start();
    }

    @Override
    public String toString() {
        return "ChannelPublisher[" + description + ", " + supply + "]";
    }
}
