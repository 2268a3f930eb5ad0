package io.sluice.testkit;

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

    private Csv() {
    }

    /** {@code text} as a quoted field: in double quotes, each quote doubled, a line break read as a space. */
    public static String quote(String text) {
        return '"' + text.replace("\"", "\"\"").replace('\n', ' ') + '"';
    }

    /**
     * The fields of one record; a quoted field may hold commas and doubled quotes.
     *
     * @throws IllegalArgumentException if a quoted field has no closing quote
     */
    public static List<String> fields(String line) {
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted && c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                field.append('"');
                i++;
            } else if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                fields.add(field.toString());
                field.setLength(0);
            } else {
                field.append(c);
            }
        }
        if (quoted) {
            throw new IllegalArgumentException("a quoted field has no closing quote: " + line);
        }
        fields.add(field.toString());
        return fields;
    }

    /**
     * The records of {@code file} after its header, each made by {@code record} from the header the
     * file has (one of {@code headers}, the first line without surrounding blanks) and the record's
     * fields; blank lines are skipped.
     *
     * @throws IOException if the file cannot be read, its first line is none of {@code headers}, or
     *     {@code record} throws (the message names the file and the line)
     */
    public static <T> List<T> read(Path file, List<String> headers, BiFunction<String, List<String>, T> record)
            throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        String header = lines.isEmpty() ? "" : lines.get(0).trim();
        if (!headers.contains(header)) {
            throw new IOException(file + ": the first line must be '" + String.join("' or '", headers) + "', was '"
                    + header + "'");
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
