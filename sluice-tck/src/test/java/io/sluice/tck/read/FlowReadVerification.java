package io.sluice.tck.read;

import io.sluice.tck.support.Tck;
import org.reactivestreams.tck.flow.FlowPublisherVerification;
import org.testng.annotations.AfterClass;

import java.nio.ByteBuffer;
import java.util.concurrent.Flow;

/** The Reactive Streams TCK (java.util.concurrent.Flow flavour) for one {@link ReadFixture}. */
abstract class FlowReadVerification extends FlowPublisherVerification<ByteBuffer> {

    private final ReadFixture fixture;

    FlowReadVerification(ReadFixture fixture) {
        super(Tck.environment(), Tck.GC_TIMEOUT_MILLIS);
        this.fixture = fixture;
    }

    @Override
    public Flow.Publisher<ByteBuffer> createFlowPublisher(long elements) {
        return fixture.publisher(elements);
    }

    @Override
    public Flow.Publisher<ByteBuffer> createFailedFlowPublisher() {
        return fixture.failedPublisher();
    }

    @Override
    public long maxElementsFromPublisher() {
        return fixture.maxElements();
    }

    @AfterClass(alwaysRun = true)
    public void closeFixture() {
        fixture.close();
    }
}
