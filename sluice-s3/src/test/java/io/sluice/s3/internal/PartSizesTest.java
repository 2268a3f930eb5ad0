package io.sluice.s3.internal;

import io.sluice.s3.UploadOptions;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** O7: the growth schedule covers S3's 5 TiB in 10,000 parts from any first size, within S3's part bounds. */
class PartSizesTest {

    static final long MIB = 1024 * 1024;
    static final long S3_MAX_OBJECT_BYTES = 5 * 1024 * 1024 * MIB; // 5 TiB
    static final long S3_MAX_PART_BYTES = 5 * 1024 * MIB; // 5 GiB

    @Property(tries = 2000, edgeCases = EdgeCasesMode.FIRST)
    void tenThousandPartsHoldFiveTebibytesFromAnyFirstSize(
            @ForAll @IntRange(min = UploadOptions.MIN_PART_SIZE_BYTES, max = UploadOptions.MAX_PART_SIZE_BYTES)
                    int firstBytes) {
        PartSizes sizes = PartSizes.growing(firstBytes, UploadOptions.MAX_PART_SIZE_BYTES, UploadOptions.MAX_PARTS);
        long total = 0;
        int previous = 0;
        for (int part = 1; part <= UploadOptions.MAX_PARTS; part++) {
            int size = sizes.sizeOf(part);
            assertTrue(
                    size >= UploadOptions.MIN_PART_SIZE_BYTES && size <= S3_MAX_PART_BYTES,
                    "part " + part + " is " + size + " bytes");
            assertTrue(size >= previous, "part " + part + " is smaller than the one before");
            previous = size;
            total += size;
        }
        assertTrue(total >= S3_MAX_OBJECT_BYTES, "from " + firstBytes + ": " + total + " bytes");
    }

    @Property(tries = 500)
    void sizesNeverDecreaseStayWithinTheCapAndGrowOnlyWithTheBytesSent(
            @ForAll @IntRange(min = UploadOptions.MIN_PART_SIZE_BYTES, max = UploadOptions.MAX_PART_SIZE_BYTES)
                    int firstBytes,
            @ForAll @IntRange(min = UploadOptions.MIN_PART_SIZE_BYTES, max = UploadOptions.MAX_PART_SIZE_BYTES)
                    int maxBytes,
            @ForAll @IntRange(min = 1, max = UploadOptions.MAX_PARTS) int maxParts) {
        PartSizes sizes = PartSizes.growing(firstBytes, maxBytes, maxParts);
        int perDoubling = Math.max(1, maxParts / 20);
        long sent = 0;
        int previous = firstBytes;
        for (int part = 1; part <= maxParts; part++) {
            int size = sizes.sizeOf(part);
            assertTrue(size >= previous, "non-decreasing at part " + part);
            assertTrue(size <= Math.max(firstBytes, maxBytes), "within the cap at part " + part);
            assertTrue(size <= firstBytes + sent / perDoubling, "the documented bound at part " + part);
            previous = size;
            sent += size;
        }
    }

    @Example
    void aCapAtOrBelowTheFirstSizeFixesIt() {
        PartSizes sizes = PartSizes.growing(8 * (int) MIB, 5 * (int) MIB, UploadOptions.MAX_PARTS);
        assertEquals(8 * MIB, sizes.sizeOf(1));
        assertEquals(8 * MIB, sizes.sizeOf(UploadOptions.MAX_PARTS));
        assertEquals(8 * MIB, PartSizes.fixed(8 * (int) MIB).sizeOf(Integer.MAX_VALUE));
    }

    /** The worked example in UploadOptions' and ReactiveObject's Javadoc and in docs/S3.md. */
    @Example
    void theDocumentedExampleAtTheDefaults() {
        PartSizes sizes = PartSizes.growing(
                UploadOptions.DEFAULT_PART_SIZE_BYTES, UploadOptions.MAX_PART_SIZE_BYTES, UploadOptions.MAX_PARTS);
        assertEquals(8 * MIB, sizes.sizeOf(500));
        assertEquals(16 * MIB, sizes.sizeOf(501));
        assertEquals(128 * MIB, partSizeAfter(sizes, 100 * 1024 * MIB));
        assertEquals(1024 * MIB, sizes.sizeOf(3501));
        assertEquals(512 * MIB, sizes.sizeOf(3500));
        long beforePart3501 = 0;
        for (int part = 1; part <= 3500; part++) {
            beforePart3501 += sizes.sizeOf(part);
        }
        assertEquals(508_000 * MIB, beforePart3501, "about 496 GiB");
    }

    /** docs/S3.md: a 64 MiB cap holds about 558 GiB in 10,000 parts. */
    @Example
    void aCapOf64MebibytesHoldsAbout558Gibibytes() {
        PartSizes sizes =
                PartSizes.growing(UploadOptions.DEFAULT_PART_SIZE_BYTES, 64 * (int) MIB, UploadOptions.MAX_PARTS);
        long total = 0;
        for (int part = 1; part <= UploadOptions.MAX_PARTS; part++) {
            total += sizes.sizeOf(part);
        }
        assertEquals(572_000 * MIB, total);
    }

    private static long partSizeAfter(PartSizes sizes, long sentBytes) {
        long sent = 0;
        int part = 1;
        while (sent < sentBytes) {
            sent += sizes.sizeOf(part++);
        }
        return sizes.sizeOf(part);
    }
}
