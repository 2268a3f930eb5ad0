package io.sluice.tck.write;

import io.sluice.tck.support.Tck;
import org.reactivestreams.tck.flow.FlowSubscriberBlackboxVerification;
import org.testng.ITest;
import org.testng.annotations.AfterClass;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Factory;

import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.util.concurrent.Flow;

/**
 * TCK blackbox subscriber rules (java.util.concurrent.Flow) for every {@link WriterCase#tck() case}
 * (every writer target under every demand strategy; the sync and atomic file writers under
 * the default one): the subscriber an entry point's {@code Flow.Publisher} overload subscribes,
 * exactly as a Flow upstream of a write gets it; no probe. It requests on its own (from its drain), so
 * {@code triggerRequest} is left as the TCK's no-op.
 */
public class FlowWriterBlackboxTckTest extends FlowSubscriberBlackboxVerification<ByteBuffer> implements ITest {

    private final WriterCase writerCase;
    private final WriterFixture fixture;
    private volatile String testName;

    @Factory
    public static Object[] cases() {
        return WriterCase.tck().stream().map(FlowWriterBlackboxTckTest::new).toArray();
    }

    FlowWriterBlackboxTckTest(WriterCase writerCase) {
        super(Tck.environment());
        this.writerCase = writerCase;
        this.fixture = new WriterFixture(writerCase);
    }

    @Override
    public Flow.Subscriber<ByteBuffer> createFlowSubscriber() {
        return fixture.newFlowWriter().flowSubscriber();
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
