package io.sluice.tck.read;

/** TCK: a cold channel read of an endless synthetic channel (Flow). */
public class FlowEndlessChannelReadTckTest extends FlowReadVerification {

    public FlowEndlessChannelReadTckTest() {
        super(new ChannelReadFixture(true));
    }
}
