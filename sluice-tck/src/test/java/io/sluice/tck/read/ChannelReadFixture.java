package io.sluice.tck.read;

import io.sluice.ByteChannels;
import io.sluice.BytePublisher;
import io.sluice.ReadOptions;
import io.sluice.tck.support.PatternChannel;

/**
 * {@link ByteChannels#publisher(java.util.concurrent.Callable, ReadOptions)} (cold: each subscriber
 * opens its own channel) over a lazy {@link PatternChannel}, so any element count up to
 * {@link #MAX_ELEMENTS} costs nothing until read.
 */
final class ChannelReadFixture implements ReadFixture {

    /**
     * The most elements a source of at most {@code Long.MAX_VALUE} bytes holds in full chunks.
     * Far above the most any TCK 1.0.4 test asks for ({@code Integer.MAX_VALUE}, §3.17), so no
     * test is skipped for its size, and {@code publisher(n)} is exact for every {@code n} allowed.
     */
    static final long MAX_ELEMENTS = Long.MAX_VALUE / CHUNK_BYTES;

    @Override
    public BytePublisher publisher(long elements) {
        return ByteChannels.publisher(
                () -> new PatternChannel(lengthBytes(elements)),
                ReadOptions.defaults().withChunkSize(CHUNK_BYTES));
    }

    /** {@code elements * CHUNK_BYTES}, for {@code elements <= MAX_ELEMENTS}. */
    static long lengthBytes(long elements) {
        return Math.multiplyExact(elements, (long) CHUNK_BYTES);
    }

    @Override
    public BytePublisher failedPublisher() {
        return ReadFailures.alreadyConsumed(ByteChannels.publisher(
                new PatternChannel(CHUNK_BYTES), ReadOptions.defaults().withChunkSize(CHUNK_BYTES)));
    }

    @Override
    public long maxElements() {
        return MAX_ELEMENTS;
    }

    @Override
    public void close() {}

    @Override
    public String toString() {
        return "channel read";
    }
}
