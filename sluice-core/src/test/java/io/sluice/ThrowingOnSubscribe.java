package io.sluice;

import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.nio.ByteBuffer;

/** A subscriber with a bug: its {@code onSubscribe} throws (§2.13), so the publisher must take it as a cancel. */
final class ThrowingOnSubscribe implements Subscriber<ByteBuffer> {

    @Override
    public void onSubscribe(Subscription subscription) {
        throw new IllegalStateException("a subscriber's bug");
    }

    @Override
    public void onNext(ByteBuffer chunk) {}

    @Override
    public void onError(Throwable error) {}

    @Override
    public void onComplete() {}
}
