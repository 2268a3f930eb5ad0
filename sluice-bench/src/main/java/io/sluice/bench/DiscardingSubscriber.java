package io.sluice.bench;

import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The read operations' sink, as a user would write it: requests everything at once (like
 * Reactor's {@code subscribe()}), hands each chunk to a check, then drops it.
 */
public final class DiscardingSubscriber<T> implements Subscriber<T> {

    private final Consumer<? super T> check;
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private Subscription subscription;

    public DiscardingSubscriber(Consumer<? super T> check) {
        this.check = Objects.requireNonNull(check, "check");
    }

    /** Completes when the stream completes, exceptionally when it fails or a check throws. */
    public CompletableFuture<Void> done() {
        return done;
    }

    @Override
    public void onSubscribe(Subscription subscription) {
        this.subscription = subscription;
        subscription.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(T item) {
        try {
            check.accept(item);
        } catch (RuntimeException e) {
            subscription.cancel();
            done.completeExceptionally(e);
        }
    }

    @Override
    public void onError(Throwable error) {
        done.completeExceptionally(error);
    }

    @Override
    public void onComplete() {
        done.complete(null);
    }
}
