package io.sluice.tck.read;

import io.sluice.ByteChannels;
import io.sluice.BytePublisher;
import io.sluice.ReadOptions;
import io.sluice.tck.support.PatternChannel;

/**
 * {@link ByteChannels#publisher(java.util.concurrent.Callable, ReadOptions)} (cold: each subscriber
 * opens its own channel) over a lazy {@link PatternChannel}, so any element count up to
 * {@code Long.MAX_VALUE - 1} costs nothing until read. Endless: the channel never ends, and the
 * TCK is told so ({@code maxElementsFromPublisher() == Long.MAX_VALUE}).
 */
final class ChannelReadFixture implements ReadFixture {

    private final boolean endless;

    ChannelReadFixture(boolean endless) {
        this.endless = endless;
    }

    @Override
    public BytePublisher publisher(long elements) {
        long bytes = endless ? Long.MAX_VALUE : lengthBytes(elements);
        return ByteChannels.publisher(() -> new PatternChannel(bytes),
                ReadOptions.defaults().withChunkSize(CHUNK_BYTES));
    }

    /** {@code elements * CHUNK_BYTES}; past {@code Long.MAX_VALUE} bytes the channel is endless. */
    static long lengthBytes(long elements) {
        return elements > Long.MAX_VALUE / CHUNK_BYTES ? Long.MAX_VALUE : elements * CHUNK_BYTES;
    }

    @Override
    public BytePublisher failedPublisher() {
        return ReadFailures.alreadyConsumed(ByteChannels.publisher(new PatternChannel(CHUNK_BYTES),
                ReadOptions.defaults().withChunkSize(CHUNK_BYTES)));
    }

    @Override
    public long maxElements() {
        return endless ? Long.MAX_VALUE : Long.MAX_VALUE - 1;
    }

    @Override
    public void close() {
    }

    @Override
    public String toString() {
        return endless ? "endless channel read" : "channel read";
    }
}
