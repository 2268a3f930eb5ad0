package io.sluice.lab;

/** Sizes as the harnesses' options take them and their tables print them. */
public final class ByteSizes {

    private ByteSizes() {}

    /**
     * {@code 1KiB}, {@code 100MiB}, {@code 1GiB} or a plain count of bytes.
     *
     * @throws NumberFormatException if {@code text} is none of those
     */
    public static long parse(String text) {
        String[] units = {"GiB", "MiB", "KiB"};
        long[] factors = {1L << 30, 1L << 20, 1L << 10};
        for (int i = 0; i < units.length; i++) {
            if (text.endsWith(units[i])) {
                return Long.parseLong(text.substring(0, text.length() - 3)) * factors[i];
            }
        }
        return Long.parseLong(text);
    }

    /** {@code 1 MiB}, {@code 100 MiB}, {@code 1 GiB}, or bytes when not a whole number of MiB. */
    public static String format(long bytes) {
        if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) {
            return bytes / (1L << 30) + " GiB";
        }
        if (bytes >= 1L << 20 && bytes % (1L << 20) == 0) {
            return bytes / (1L << 20) + " MiB";
        }
        return bytes + " B";
    }
}
