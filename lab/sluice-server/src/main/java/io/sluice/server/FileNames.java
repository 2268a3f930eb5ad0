package io.sluice.server;

import java.nio.file.Path;
import java.util.stream.Collectors;

/**
 * Validates the {@code {name}} in {@code /files/{name}} and maps it into the storage directory.
 * A name is 1..{@value #MAX_LENGTH} characters of {@code [A-Za-z0-9._-]} and does not start with
 * a dot, so it cannot traverse ({@code ..}), cannot be absolute, has no separator, and never names
 * a hidden file such as the writer's {@code .sluice-*.tmp} temporaries.
 */
final class FileNames {

    static final int MAX_LENGTH = 128;

    private FileNames() {}

    static Path resolve(Path directory, String name) {
        validate(name);
        Path resolved = directory.resolve(name).normalize();
        if (!directory.equals(resolved.getParent())) { // belt and braces after the character check
            throw HttpProblem.badRequest("file name '" + name + "' escapes the storage directory");
        }
        return resolved;
    }

    static void validate(String name) {
        if (name.isEmpty()) {
            throw HttpProblem.badRequest("file name is empty: use /files/{name}");
        }
        if (name.length() > MAX_LENGTH) {
            throw HttpProblem.badRequest(
                    "file name is " + name.length() + " characters long; the limit is " + MAX_LENGTH);
        }
        if (name.indexOf('/') >= 0 || name.indexOf('\\') >= 0) {
            throw HttpProblem.badRequest("file name must not contain a path separator: '" + printable(name) + "'");
        }
        if (name.startsWith(".")) {
            throw HttpProblem.badRequest(
                    "file name must not start with '.' (no traversal, no hidden files): '" + printable(name) + "'");
        }
        for (int i = 0; i < name.length(); i++) {
            char character = name.charAt(i);
            boolean allowed = (character >= 'a' && character <= 'z')
                    || (character >= 'A' && character <= 'Z')
                    || (character >= '0' && character <= '9')
                    || character == '.'
                    || character == '_'
                    || character == '-';
            if (!allowed) {
                throw HttpProblem.badRequest("file name may only use letters, digits, '.', '_' and '-'; found "
                        + String.format("U+%04X", (int) character) + " at index " + i);
            }
        }
    }

    private static String printable(String name) {
        return name.codePoints()
                .limit(MAX_LENGTH)
                .mapToObj(codePoint -> codePoint < 0x20 || codePoint > 0x7e
                        ? String.format("\\u%04x", codePoint)
                        : Character.toString(codePoint))
                .collect(Collectors.joining());
    }
}
