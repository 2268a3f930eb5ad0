package io.sluice.tck.read;

/** TCK: a whole-file read in chunks lent from a pool, 8-byte chunks (Flow). */
public class FlowLentFileReadTckTest extends FlowReadVerification {

    public FlowLentFileReadTckTest() {
        super(new FileReadFixture(false, true));
    }
}
