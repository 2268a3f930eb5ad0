package io.sluice.tck.read;

/** TCK: a cold channel read of an endless synthetic channel (org.reactivestreams). */
public class EndlessChannelReadTckTest extends ReadVerification {

    public EndlessChannelReadTckTest() {
        super(new ChannelReadFixture(true));
    }
}
