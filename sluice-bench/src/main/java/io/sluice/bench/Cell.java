package io.sluice.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** One grid point: an operation on files of {@code sizeBytes}, {@code parallelism} at once. */
public record Cell(Op op, long sizeBytes, int parallelism) {

    public Cell {
        if (sizeBytes <= 0 || sizeBytes % Payload.CHUNK_BYTES != 0) {
            throw new IllegalArgumentException("sizeBytes must be a positive multiple of "
                    + Payload.CHUNK_BYTES + ", was " + sizeBytes);
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
            throw new IllegalArgumentException("a cell is OP:SIZE:PARALLELISM (e.g. WRITE:1M:10), was '"
                    + spec + "'");
        }
        return new Cell(Op.valueOf(parts[0].toUpperCase(Locale.ROOT)), parseSize(parts[1]),
                Integer.parseInt(parts[2]));
    }

    public static List<Cell> parseAll(String specs) {
        List<Cell> cells = new ArrayList<>();
        for (String spec : specs.split(",")) {
            if (!spec.isBlank()) {
                cells.add(parse(spec));
            }
        }
        return cells;
    }

    /** {@code 1K}, {@code 10M}, {@code 1G} or plain bytes. */
    public static long parseSize(String text) {
        String t = text.trim().toUpperCase(Locale.ROOT);
        long unit = 1;
        if (t.endsWith("K")) {
            unit = 1024;
        } else if (t.endsWith("M")) {
            unit = 1024 * 1024;
        } else if (t.endsWith("G")) {
            unit = 1024L * 1024 * 1024;
        }
        if (unit != 1) {
            t = t.substring(0, t.length() - 1);
        }
        return Long.parseLong(t) * unit;
    }

    public static String formatSize(long bytes) {
        if (bytes % (1024L * 1024 * 1024) == 0) {
            return bytes / (1024L * 1024 * 1024) + " GiB";
        }
        if (bytes % (1024 * 1024) == 0) {
            return bytes / (1024 * 1024) + " MiB";
        }
        if (bytes % 1024 == 0) {
            return bytes / 1024 + " KiB";
        }
        return bytes + " B";
    }

    /** {@code write 10 MiB x10}. */
    public String label() {
        return op.name().toLowerCase(Locale.ROOT) + " " + formatSize(sizeBytes) + " x" + parallelism;
    }
}
