package io.sluice.tck.http;

import io.sluice.tck.support.Tck;
import org.reactivestreams.tck.flow.FlowSubscriberWhiteboxVerification;
import org.testng.annotations.AfterClass;
import org.testng.annotations.AfterMethod;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.Flow;

/**
 * TCK whitebox subscriber rules (java.util.concurrent.Flow) for the body subscriber
 * {@code FileBodyHandler.to(file, WriteOptions.defaults())} gives a 200 response: the
 * {@code Flow.Subscriber<List<ByteBuffer>>} the {@code HttpClient} drives (see {@link FileBodies}).
 */
public class FlowFileBodySubscriberTckTest extends FlowSubscriberWhiteboxVerification<List<ByteBuffer>> {

    private final FileBodies bodies = new FileBodies();

    public FlowFileBodySubscriberTckTest() {
        super(Tck.environment());
    }

    @Override
    protected Flow.Subscriber<List<ByteBuffer>> createFlowSubscriber(WhiteboxSubscriberProbe<List<ByteBuffer>> probe) {
        return bodies.next(probe);
    }

    @Override
    public List<ByteBuffer> createElement(int element) {
        return FileBodies.element(element);
    }

    @AfterMethod(alwaysRun = true)
    public void endBodiesAndCheckClosed() {
        bodies.endBodiesAndCheckClosed();
    }

    @AfterClass(alwaysRun = true)
    public void closeDirectory() {
        bodies.close();
    }
}
