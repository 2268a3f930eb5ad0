package io.sluice.tck.write;

import io.sluice.tck.support.Tck;
import org.reactivestreams.Subscriber;
import org.reactivestreams.tck.SubscriberBlackboxVerification;
import org.testng.ITest;
import org.testng.annotations.AfterClass;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Factory;

import java.lang.reflect.Method;
import java.nio.ByteBuffer;

/**
 * TCK blackbox subscriber rules (org.reactivestreams) for every {@link WriterCase#tck() case}
 * (every writer target under every demand strategy; the sync and atomic file writers under
 * the default one): the subscriber the entry point subscribes, no probe. It requests on its own (from its drain), so
 * {@code triggerRequest} is left as the TCK's no-op.
 */
public class WriterBlackboxTckTest extends SubscriberBlackboxVerification<ByteBuffer> implements ITest {

    private final WriterCase writerCase;
    private final WriterFixture fixture;
    private volatile String testName;

    @Factory
    public static Object[] cases() {
        return WriterCase.tck().stream().map(WriterBlackboxTckTest::new).toArray();
    }

    WriterBlackboxTckTest(WriterCase writerCase) {
        super(Tck.environment());
        this.writerCase = writerCase;
        this.fixture = new WriterFixture(writerCase);
    }

    @Override
    public Subscriber<ByteBuffer> createSubscriber() {
        return fixture.newWriter().subscriber();
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
