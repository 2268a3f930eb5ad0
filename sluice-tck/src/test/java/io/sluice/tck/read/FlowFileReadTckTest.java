package io.sluice.tck.read;

/** TCK: a whole-file read, 8-byte chunks (Flow). */
public class FlowFileReadTckTest extends FlowReadVerification {

    public FlowFileReadTckTest() {
        super(new FileReadFixture(false));
    }
}
