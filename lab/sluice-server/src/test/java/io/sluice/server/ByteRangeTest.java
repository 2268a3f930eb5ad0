package io.sluice.server;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class ByteRangeTest {

    @Test
    void parsesTheThreeSingleRangeForms() {
        assertEquals(new ByteRange(10, 10, true), ByteRange.of("bytes=10-19", 100));
        assertEquals(new ByteRange(90, 10, true), ByteRange.of("bytes=90-", 100));
        assertEquals(new ByteRange(95, 5, true), ByteRange.of("bytes=-5", 100));
        assertEquals(new ByteRange(90, 10, true), ByteRange.of("bytes=90-500", 100), "last is clamped");
        assertEquals(new ByteRange(0, 100, true), ByteRange.of("bytes=-500", 100), "suffix is clamped");
    }

    @Test
    void ignoresWhatItDoesNotSupportAndServesTheWholeFile() {
        ByteRange whole = new ByteRange(0, 100, false);
        assertEquals(whole, ByteRange.of(null, 100));
        assertEquals(whole, ByteRange.of("bytes=0-1,5-6", 100), "multiple ranges");
        assertEquals(whole, ByteRange.of("items=0-1", 100), "other units");
        assertEquals(whole, ByteRange.of("bytes=x-y", 100), "garbage");
        assertEquals(whole, ByteRange.of("bytes=20-10", 100), "last before first");
    }

    @Test
    void reportsUnsatisfiableRangesAsNull() {
        assertNull(ByteRange.of("bytes=100-", 100));
        assertNull(ByteRange.of("bytes=-0", 100));
        assertNull(ByteRange.of("bytes=0-", 0));
    }
}
