package io.sluice.tck.read;

import io.sluice.BytePublisher;
import io.sluice.ByteStreams;
import io.sluice.ReadOptions;
import io.sluice.tck.support.PatternInputStream;

/**
 * {@link ByteStreams#publisher(java.util.concurrent.Callable, ReadOptions)} (cold) over a lazy
 * {@link PatternInputStream}: any element count up to {@link ChannelReadFixture#MAX_ELEMENTS}.
 */
final class StreamReadFixture implements ReadFixture {

    @Override
    public BytePublisher publisher(long elements) {
        long bytes = ChannelReadFixture.lengthBytes(elements);
        return ByteStreams.publisher(
                () -> new PatternInputStream(bytes), ReadOptions.defaults().withChunkSize(CHUNK_BYTES));
    }

    @Override
    public BytePublisher failedPublisher() {
        return ReadFailures.alreadyConsumed(ByteStreams.publisher(
                new PatternInputStream(CHUNK_BYTES), ReadOptions.defaults().withChunkSize(CHUNK_BYTES)));
    }

    @Override
    public long maxElements() {
        return ChannelReadFixture.MAX_ELEMENTS;
    }

    @Override
    public void close() {}

    @Override
    public String toString() {
        return "stream read";
    }
}
