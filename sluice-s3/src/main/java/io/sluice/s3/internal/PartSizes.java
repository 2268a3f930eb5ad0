package io.sluice.s3.internal;

/**
 * The size of each part of an upload, by part number: the one place that knows the growth schedule.
 * Immutable; an upload holds one and asks it for each part it starts assembling.
 *
 * <p>Schedule: part {@code n} (from 1) is {@code first * 2^((n - 1) / perDoubling)}, at most
 * {@code max}, where {@code perDoubling = max(1, maxParts / 20)}: with S3's 10,000 parts the size
 * doubles every 500 parts. Sizes never decrease, so a buffer of an earlier part is never larger than
 * the current one, and the size grows only with the bytes already uploaded: a part of size
 * {@code c > first} is preceded by {@code perDoubling} parts of each smaller size, that is by at
 * least {@code perDoubling * (c - first)} bytes, so {@code c <= first + uploaded / perDoubling}.
 *
 * <p>Why every 500 parts and 1 GiB: from the smallest first size S3 allows (5 MiB) the sizes reach
 * 640 MiB after 8 doublings (4,000 parts), and the remaining 6,000 parts of 1 GiB bring the total
 * to about 6.5 TiB, above S3's 5 TiB object limit; a larger first size only raises every term.
 * Doubling every 722 parts would still cover 5 TiB from 5 MiB; 500 leaves room and keeps the
 * schedule a round fraction of the part limit.
 */
public final class PartSizes {

    /** The part limit divided by this is the number of parts between doublings. */
    static final int DOUBLINGS_BUDGET = 20;

    private final int firstBytes; // part 1's size, and every part's if not growing
    private final int maxBytes; // the cap, at least firstBytes
    private final int perDoubling; // parts between doublings; Integer.MAX_VALUE: fixed

    private PartSizes(int firstBytes, int maxBytes, int perDoubling) {
        this.firstBytes = firstBytes;
        this.maxBytes = Math.max(firstBytes, maxBytes);
        this.perDoubling = perDoubling;
    }

    /**
     * Sizes that start at {@code firstBytes} and double every {@code maxParts / 20} parts (at least
     * every part) up to {@code maxBytes}; a cap at or below the first size means a fixed size.
     */
    public static PartSizes growing(int firstBytes, int maxBytes, int maxParts) {
        return new PartSizes(firstBytes, maxBytes, Math.max(1, maxParts / DOUBLINGS_BUDGET));
    }

    /** Every part {@code bytes} (the last one smaller): for a body whose length is declared. */
    public static PartSizes fixed(int bytes) {
        return new PartSizes(bytes, bytes, Integer.MAX_VALUE);
    }

    /** The size of part {@code partNumber} (from 1); the last part of a body may be smaller. */
    public int sizeOf(int partNumber) {
        int doublings = (partNumber - 1) / perDoubling;
        if (doublings >= 31) {
            return maxBytes;
        }
        return (int) Math.min((long) firstBytes << doublings, maxBytes);
    }

    /** The first part's size. */
    public int firstBytes() {
        return firstBytes;
    }

    /** The largest part. */
    public int maxBytes() {
        return maxBytes;
    }

    @Override
    public String toString() {
        return "PartSizes[first=" + firstBytes + ", max=" + maxBytes
                + (perDoubling == Integer.MAX_VALUE ? ", fixed" : ", doubling every " + perDoubling + " parts") + "]";
    }
}
