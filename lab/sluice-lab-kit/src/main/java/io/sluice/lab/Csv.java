package io.sluice.lab;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * The CSV of the harnesses' raw results, as RFC 4180 quotes it, one record per line: strategy
 * names such as {@code fixed(4,1)} and free-text notes hold commas and quotes.
 */
public final class Csv {

    private Csv() {}

    /** {@code text} as a quoted field: in double quotes, each quote doubled, a line break read as a space. */
    public static String quote(String text) {
        return '"' + text.replace("\"", "\"\"").replace('\n', ' ') + '"';
    }

    /** The fields of one record; IllegalArgumentException if a quoted field has no closing quote. */
    public static List<String> fields(String line) {
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char character = line.charAt(i);
            if (quoted && character == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                field.append('"');
                i++;
            } else if (character == '"') {
                quoted = !quoted;
            } else if (character == ',' && !quoted) {
                fields.add(field.toString());
                field.setLength(0);
            } else {
                field.append(character);
            }
        }
        if (quoted) {
            throw new IllegalArgumentException("a quoted field has no closing quote: " + line);
        }
        fields.add(field.toString());
        return fields;
    }

    /**
     * The records of {@code file} after its header (one of {@code headers}, trimmed), each made by
     * {@code record} from that header and its fields; blank lines are skipped. An IOException names
     * the file and line if the header is none of those or {@code record} throws.
     */
    public static <T> List<T> read(Path file, List<String> headers, BiFunction<String, List<String>, T> record)
            throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        String header = lines.isEmpty() ? "" : lines.get(0).trim();
        if (!headers.contains(header)) {
            throw new IOException(
                    file + ": the first line must be '" + String.join("' or '", headers) + "', was '" + header + "'");
        }
        List<T> records = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            try {
                if (!lines.get(i).isBlank()) {
                    records.add(record.apply(header, fields(lines.get(i).trim())));
                }
            } catch (RuntimeException e) {
                throw new IOException(file + ":" + (i + 1) + ": " + e.getMessage(), e);
            }
        }
        return records;
    }
}
