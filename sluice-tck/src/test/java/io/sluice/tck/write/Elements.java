package io.sluice.tck.write;

import java.nio.ByteBuffer;

/** The TCK's elements for writers: element {@code i} is the 4 bytes of {@code i}, big-endian. */
final class Elements {

    private Elements() {}

    static ByteBuffer of(int element) {
        return ByteBuffer.allocate(Integer.BYTES).putInt(0, element);
    }
}
