package io.sluice.tck.read;

/** TCK: a cold channel read of a finite synthetic channel (Flow). */
public class FlowChannelReadTckTest extends FlowReadVerification {

    public FlowChannelReadTckTest() {
        super(new ChannelReadFixture());
    }
}
