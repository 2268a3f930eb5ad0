package io.sluice.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** One grid point: an operation on files of {@code sizeBytes}, {@code parallelism} at once. */
public record Cell(Op op, long sizeBytes, int parallelism) {

    public Cell {
        if (sizeBytes <= 0 || sizeBytes % Payload.CHUNK_BYTES != 0) {
            throw new IllegalArgumentException(
                    "sizeBytes must be a positive multiple of " + Payload.CHUNK_BYTES + ", was " + sizeBytes);
        }
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be positive, was " + parallelism);
        }
    }

    /** Bytes moved by one invocation: every parallel operation's file. */
    public long totalBytes() {
        return sizeBytes * parallelism;
    }

    /** {@code WRITE:1048576:10}, the form {@link #parse} reads. */
    public String spec() {
        return op + ":" + sizeBytes + ":" + parallelism;
    }

    public static Cell parse(String spec) {
        String[] parts = spec.trim().split(":");
        if (parts.length != 3) {
            throw new IllegalArgumentException("a cell is OP:SIZE:PARALLELISM (e.g. WRITE:1M:10), was '" + spec + "'");
        }
        return new Cell(Op.valueOf(parts[0].toUpperCase(Locale.ROOT)), parseSize(parts[1]), Integer.parseInt(parts[2]));
    }

    /** Comma-separated {@link #parse} forms; blank entries are skipped. */
    public static List<Cell> parseAll(String specs) {
        return Arrays.stream(specs.split(","))
                .filter(spec -> !spec.isBlank())
                .map(Cell::parse)
                .toList();
    }

    /** {@code 1K}, {@code 10M}, {@code 1G} or plain bytes. */
    public static long parseSize(String text) {
        String size = text.trim().toUpperCase(Locale.ROOT);
        int unit = "KMG".indexOf(size.charAt(size.length() - 1)) + 1; // 0: plain bytes
        return Long.parseLong(unit == 0 ? size : size.substring(0, size.length() - 1)) << (10 * unit);
    }

    /** {@code 1 GiB}, {@code 10 MiB}, {@code 1 KiB} or {@code 1000 B}: the largest unit that divides it. */
    public static String formatSize(long bytes) {
        int unit = 3;
        while (unit > 0 && bytes % (1L << (10 * unit)) != 0) {
            unit--;
        }
        return (bytes >> (10 * unit)) + " " + List.of("B", "KiB", "MiB", "GiB").get(unit);
    }

    /** {@code write 10 MiB x10}. */
    public String label() {
        return op.name().toLowerCase(Locale.ROOT) + " " + formatSize(sizeBytes) + " x" + parallelism;
    }
}
