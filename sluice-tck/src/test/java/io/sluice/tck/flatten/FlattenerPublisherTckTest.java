package io.sluice.tck.flatten;

import io.sluice.tck.support.Tck;
import org.reactivestreams.FlowAdapters;
import org.reactivestreams.Publisher;
import org.reactivestreams.tck.PublisherVerification;

import java.nio.ByteBuffer;

/**
 * TCK publisher rules (org.reactivestreams) for {@code BufferFlattener}'s publisher side, behind
 * {@code FlowAdapters.toPublisher}: buffers from an upstream of lists of 1 to 3.
 */
public class FlattenerPublisherTckTest extends PublisherVerification<ByteBuffer> {

    public FlattenerPublisherTckTest() {
        super(Tck.environment(), Tck.GC_TIMEOUT_MILLIS);
    }

    @Override
    public Publisher<ByteBuffer> createPublisher(long elements) {
        return FlowAdapters.toPublisher(Flattened.of(elements));
    }

    @Override
    public Publisher<ByteBuffer> createFailedPublisher() {
        return FlowAdapters.toPublisher(Flattened.failed());
    }
}
