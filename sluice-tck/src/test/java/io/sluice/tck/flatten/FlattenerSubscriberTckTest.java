package io.sluice.tck.flatten;

import io.sluice.tck.support.Tck;
import org.reactivestreams.FlowAdapters;
import org.reactivestreams.Subscriber;
import org.reactivestreams.tck.SubscriberWhiteboxVerification;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * TCK whitebox subscriber rules (org.reactivestreams) for {@code BufferFlattener}'s subscriber
 * side behind {@code FlowAdapters.toSubscriber} (see {@link ProbedFlattener}).
 */
public class FlattenerSubscriberTckTest extends SubscriberWhiteboxVerification<List<ByteBuffer>> {

    public FlattenerSubscriberTckTest() {
        super(Tck.environment());
    }

    @Override
    public Subscriber<List<ByteBuffer>> createSubscriber(WhiteboxSubscriberProbe<List<ByteBuffer>> probe) {
        return FlowAdapters.toSubscriber(new ProbedFlattener(probe));
    }

    @Override
    public List<ByteBuffer> createElement(int element) {
        return ProbedFlattener.element(element);
    }
}
