package io.sluice.tck.flatten;

import io.sluice.tck.support.Tck;
import org.reactivestreams.tck.flow.FlowPublisherVerification;

import java.nio.ByteBuffer;
import java.util.concurrent.Flow;

/**
 * TCK publisher rules (java.util.concurrent.Flow) for {@code BufferFlattener}'s publisher side,
 * as {@code FileBodyHandler}'s writer sees it: buffers from an upstream of lists of 1 to 3.
 */
public class FlowFlattenerPublisherTckTest extends FlowPublisherVerification<ByteBuffer> {

    public FlowFlattenerPublisherTckTest() {
        super(Tck.environment(), Tck.GC_TIMEOUT_MILLIS);
    }

    @Override
    public Flow.Publisher<ByteBuffer> createFlowPublisher(long elements) {
        return Flattened.of(elements);
    }

    @Override
    public Flow.Publisher<ByteBuffer> createFailedFlowPublisher() {
        return Flattened.failed();
    }
}
