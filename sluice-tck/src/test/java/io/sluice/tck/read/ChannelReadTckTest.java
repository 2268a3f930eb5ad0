package io.sluice.tck.read;

/** TCK: a cold channel read of a finite synthetic channel (org.reactivestreams). */
public class ChannelReadTckTest extends ReadVerification {

    public ChannelReadTckTest() {
        super(new ChannelReadFixture());
    }
}
