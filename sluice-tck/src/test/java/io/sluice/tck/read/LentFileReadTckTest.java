package io.sluice.tck.read;

/** TCK: a whole-file read in chunks lent from a pool, 8-byte chunks (org.reactivestreams). */
public class LentFileReadTckTest extends ReadVerification {

    public LentFileReadTckTest() {
        super(new FileReadFixture(false, true));
    }
}
