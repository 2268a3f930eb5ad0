package io.sluice.tck.read;

/** TCK: a ranged file read between a prefix and a suffix (Flow). */
public class FlowRangedFileReadTckTest extends FlowReadVerification {

    public FlowRangedFileReadTckTest() {
        super(new FileReadFixture(true));
    }
}
