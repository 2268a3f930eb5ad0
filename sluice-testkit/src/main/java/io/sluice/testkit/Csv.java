package io.sluice.testkit;

import java.util.ArrayList;
import java.util.List;

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
}
