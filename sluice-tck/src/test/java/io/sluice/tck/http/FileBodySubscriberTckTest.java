package io.sluice.tck.http;

import io.sluice.tck.support.Tck;
import org.reactivestreams.FlowAdapters;
import org.reactivestreams.Subscriber;
import org.reactivestreams.tck.SubscriberWhiteboxVerification;
import org.testng.annotations.AfterClass;
import org.testng.annotations.AfterMethod;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * TCK whitebox subscriber rules (org.reactivestreams) for the body subscriber
 * {@code FileBodyHandler.to(file, WriteOptions.defaults())} gives a 200 response, behind
 * {@code FlowAdapters.toSubscriber}, as a Reactive Streams publisher would drive it (see
 * {@link FileBodies}).
 */
public class FileBodySubscriberTckTest extends SubscriberWhiteboxVerification<List<ByteBuffer>> {

    private final FileBodies bodies = new FileBodies();

    public FileBodySubscriberTckTest() {
        super(Tck.environment());
    }

    @Override
    public Subscriber<List<ByteBuffer>> createSubscriber(WhiteboxSubscriberProbe<List<ByteBuffer>> probe) {
        return FlowAdapters.toSubscriber(bodies.next(probe));
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
