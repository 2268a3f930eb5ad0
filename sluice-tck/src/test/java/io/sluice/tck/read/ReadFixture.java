package io.sluice.tck.read;

import io.sluice.BytePublisher;

/**
 * One kind of sluice read publisher, made to the TCK's order: {@code publisher(n)} emits exactly
 * {@code n} chunks then completes, for every {@code n} up to {@link #maxElements()}.
 */
public interface ReadFixture extends AutoCloseable {

    /** Chunk size of every fixture: a source of {@code n * CHUNK_BYTES} bytes is {@code n} elements. */
    int CHUNK_BYTES = 8;

    BytePublisher publisher(long elements);

    /** A publisher that must signal {@code onSubscribe} then {@code onError}, with no request (§1.9, §1.4). */
    BytePublisher failedPublisher();

    /**
     * The TCK's {@code maxElementsFromPublisher()}: never {@code Long.MAX_VALUE} (an endless source),
     * which would make the TCK skip every test that needs {@code onComplete}.
     */
    long maxElements();

    @Override
    void close();
}
