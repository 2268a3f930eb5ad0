package io.sluice.tck.read;

import io.sluice.tck.support.Tck;
import org.reactivestreams.Publisher;
import org.reactivestreams.tck.PublisherVerification;
import org.testng.annotations.AfterClass;

import java.nio.ByteBuffer;

/** The Reactive Streams TCK (org.reactivestreams flavour) for one {@link ReadFixture}. */
abstract class ReadVerification extends PublisherVerification<ByteBuffer> {

    private final ReadFixture fixture;

    ReadVerification(ReadFixture fixture) {
        super(Tck.environment(), Tck.GC_TIMEOUT_MILLIS);
        this.fixture = fixture;
    }

    @Override
    public Publisher<ByteBuffer> createPublisher(long elements) {
        return fixture.publisher(elements);
    }

    @Override
    public Publisher<ByteBuffer> createFailedPublisher() {
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
