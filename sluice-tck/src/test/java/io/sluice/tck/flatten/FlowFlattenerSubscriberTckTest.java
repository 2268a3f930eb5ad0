package io.sluice.tck.flatten;

import io.sluice.tck.support.Tck;
import org.reactivestreams.tck.flow.FlowSubscriberWhiteboxVerification;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.Flow;

/**
 * TCK whitebox subscriber rules (java.util.concurrent.Flow) for {@code BufferFlattener}'s
 * subscriber side, as the {@code HttpClient} sees it (see {@link ProbedFlattener}).
 */
public class FlowFlattenerSubscriberTckTest extends FlowSubscriberWhiteboxVerification<List<ByteBuffer>> {

    public FlowFlattenerSubscriberTckTest() {
        super(Tck.environment());
    }

    @Override
    protected Flow.Subscriber<List<ByteBuffer>> createFlowSubscriber(WhiteboxSubscriberProbe<List<ByteBuffer>> probe) {
        return new ProbedFlattener(probe);
    }

    @Override
    public List<ByteBuffer> createElement(int element) {
        return ProbedFlattener.element(element);
    }
}
