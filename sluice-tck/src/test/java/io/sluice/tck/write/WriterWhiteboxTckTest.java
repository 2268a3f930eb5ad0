package io.sluice.tck.write;

import io.sluice.tck.support.Tck;
import org.reactivestreams.Subscriber;
import org.reactivestreams.tck.SubscriberWhiteboxVerification;
import org.testng.ITest;
import org.testng.annotations.AfterClass;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Factory;

import java.lang.reflect.Method;
import java.nio.ByteBuffer;

/**
 * TCK whitebox subscriber rules (org.reactivestreams) for every {@link WriterCase#tck() case}: every
 * writer target under every demand strategy; the sync and atomic file writers under the default
 * one; each the subscriber its entry point subscribes, behind a {@link ProbedWriter}.
 */
public class WriterWhiteboxTckTest extends SubscriberWhiteboxVerification<ByteBuffer> implements ITest {

    private final WriterCase writerCase;
    private final WriterFixture fixture;
    private volatile String testName;

    @Factory
    public static Object[] cases() {
        return WriterCase.tck().stream().map(WriterWhiteboxTckTest::new).toArray();
    }

    WriterWhiteboxTckTest(WriterCase writerCase) {
        super(Tck.environment());
        this.writerCase = writerCase;
        this.fixture = new WriterFixture(writerCase);
    }

    @Override
    public Subscriber<ByteBuffer> createSubscriber(WhiteboxSubscriberProbe<ByteBuffer> probe) {
        return new ProbedWriter(fixture.newWriter(), probe, writerCase.toString());
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
