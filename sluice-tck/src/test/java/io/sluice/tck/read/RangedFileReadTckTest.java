package io.sluice.tck.read;

/** TCK: a ranged file read between a prefix and a suffix (org.reactivestreams). */
public class RangedFileReadTckTest extends ReadVerification {

    public RangedFileReadTckTest() {
        super(new FileReadFixture(true));
    }
}
