package io.sluice.tck.write;

import io.sluice.tck.support.Tck;
import org.reactivestreams.FlowAdapters;
import org.reactivestreams.Subscriber;
import org.reactivestreams.tck.flow.FlowSubscriberWhiteboxVerification;
import org.testng.ITest;
import org.testng.annotations.AfterClass;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Factory;

import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.util.concurrent.Flow;

/**
 * TCK whitebox subscriber rules (java.util.concurrent.Flow) for every {@link WriterCase#tck() case}
 * (every writer target under every demand strategy; the sync and atomic file writers under
 * the default one), each started through its entry point's {@code Flow.Publisher} overload: the
 * probe wraps the writer that overload subscribes (unwrapped from, and wrapped back into,
 * {@code FlowAdapters}).
 */
public class FlowWriterWhiteboxTckTest extends FlowSubscriberWhiteboxVerification<ByteBuffer> implements ITest {

    private final WriterCase writerCase;
    private final WriterFixture fixture;
    private volatile String testName;

    @Factory
    public static Object[] cases() {
        return WriterCase.tck().stream().map(FlowWriterWhiteboxTckTest::new).toArray();
    }

    FlowWriterWhiteboxTckTest(WriterCase writerCase) {
        super(Tck.environment());
        this.writerCase = writerCase;
        this.fixture = new WriterFixture(writerCase);
    }

    @Override
    protected Flow.Subscriber<ByteBuffer> createFlowSubscriber(WhiteboxSubscriberProbe<ByteBuffer> probe) {
        Write write = fixture.newFlowWriter();
        Subscriber<ByteBuffer> writer = FlowAdapters.toSubscriber(write.flowSubscriber());
        return FlowAdapters.toFlowSubscriber(new ProbedWriter(writer, write.result(), probe, writerCase.toString()));
    }

    @Override
    public ByteBuffer createElement(int element) {
        return Elements.of(element);
    }

    @BeforeMethod(alwaysRun = true)
    public void nameTest(Method method) {
        testName = method.getName() + " [" + writerCase + "]";
    }

    @AfterMethod(alwaysRun = true)
    public void endWrites() throws InterruptedException {
        fixture.endAllAndCheckClosed();
    }

    @AfterClass(alwaysRun = true)
    public void closeFixture() {
        fixture.close();
    }

    @Override
    public String getTestName() {
        return testName;
    }
}
