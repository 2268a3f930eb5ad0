package io.sluice.lab;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ByteSizesTest {

    @Test
    void parsesBinaryUnitsAndPlainCounts() {
        assertEquals(3L << 10, ByteSizes.parse("3KiB"));
        assertEquals(100L << 20, ByteSizes.parse("100MiB"));
        assertEquals(1L << 30, ByteSizes.parse("1GiB"));
        assertEquals(12345, ByteSizes.parse("12345"));
        assertThrows(NumberFormatException.class, () -> ByteSizes.parse("1MB"));
    }

    @Test
    void formatsWholeMebibytesAndGibibytesAndOtherwiseBytes() {
        assertEquals("1 MiB", ByteSizes.format(1L << 20));
        assertEquals("100 MiB", ByteSizes.format(100L << 20));
        assertEquals("1 GiB", ByteSizes.format(1L << 30));
        assertEquals("1536 MiB", ByteSizes.format(3L << 29));
        assertEquals("1000 B", ByteSizes.format(1000));
    }
}
