package io.sluice.tck.read;

/** TCK: a whole-file read, 8-byte chunks (org.reactivestreams). */
public class FileReadTckTest extends ReadVerification {

    public FileReadTckTest() {
        super(new FileReadFixture(false));
    }
}
