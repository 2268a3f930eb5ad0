package io.sluice.tck.read;

/** TCK: a cold InputStream read (Flow). */
public class FlowStreamReadTckTest extends FlowReadVerification {

    public FlowStreamReadTckTest() {
        super(new StreamReadFixture());
    }
}
