package io.sluice.tck.read;

/** TCK: a cold InputStream read (org.reactivestreams). */
public class StreamReadTckTest extends ReadVerification {

    public StreamReadTckTest() {
        super(new StreamReadFixture());
    }
}
