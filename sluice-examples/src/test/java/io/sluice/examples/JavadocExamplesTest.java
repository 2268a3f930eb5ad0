package io.sluice.examples;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The core Javadoc points at these examples by path, since Javadoc cannot link across
 * modules. Every path it names must exist, and every {@code <pre>{@code ...}</pre>} snippet that
 * follows a path must be that example's code, line for line (indentation aside), so the quoted code
 * is compiled and tested here. Reads sluice-core's sources (Maven runs tests in the module directory).
 */
class JavadocExamplesTest {

    private static final Path CORE_SOURCES = Path.of("..", "sluice-core", "src", "main", "java", "io", "sluice");
    private static final List<String> POINTING_TYPES =
            List.of("ReactiveFile.java", "ByteChannels.java", "ByteStreams.java", "http/FileBodyHandler.java");
    private static final Pattern EXAMPLE_PATH =
            Pattern.compile("sluice-examples/src/main/java/io/sluice/examples/(\\w+)\\.java");
    private static final Pattern SNIPPET = Pattern.compile("<pre>\\{@code\\n(.*?)\\n}</pre>", Pattern.DOTALL);
    private static final Pattern COMMENT_MARGIN = Pattern.compile("(?m)^\\s*\\* ?");

    @Test
    void everyPointingTypeNamesAnExampleThatExists() throws IOException {
        List<String> problems = new ArrayList<>();
        for (String type : POINTING_TYPES) {
            String doc = classComment(CORE_SOURCES.resolve(type));
            Matcher path = EXAMPLE_PATH.matcher(doc);
            if (!path.find()) {
                problems.add(type + " names no example");
                continue;
            }
            do {
                if (!Files.isRegularFile(example(path.group(1)))) {
                    problems.add(type + " names " + path.group() + ", which does not exist");
                }
            } while (path.find());
        }
        assertEquals(List.of(), problems);
    }

    @Test
    void everySnippetIsTheCodeOfTheExampleItFollows() throws IOException {
        List<String> problems = new ArrayList<>();
        int snippets = 0;
        for (String type : POINTING_TYPES) {
            String doc = classComment(CORE_SOURCES.resolve(type));
            Matcher snippet = SNIPPET.matcher(doc);
            while (snippet.find()) {
                String namedBefore = lastExampleNamedIn(doc.substring(0, snippet.start()));
                if (namedBefore == null) {
                    continue; // an API sketch, not a quoted example
                }
                snippets++;
                List<String> quoted = trimmedLines(snippet.group(1));
                List<String> code = trimmedLines(Files.readString(example(namedBefore)));
                if (Collections.indexOfSubList(code, quoted) < 0) {
                    problems.add(type + " quotes code that " + namedBefore + ".java does not contain:\n"
                            + String.join("\n", quoted));
                }
            }
        }
        assertTrue(snippets >= 4, "expected the pointing types to quote examples, found " + snippets + " snippets");
        assertEquals(List.of(), problems);
    }

    /** The Javadoc comment right before the type declaration, without its {@code *} margin. */
    private static String classComment(Path source) throws IOException {
        String text = Files.readString(source);
        int declaration = text.indexOf("\npublic ");
        int start = text.lastIndexOf("/**", declaration);
        assertTrue(declaration > 0 && start >= 0, "no class comment in " + source);
        String comment = text.substring(start + 3, text.lastIndexOf("*/", declaration));
        return COMMENT_MARGIN.matcher(comment).replaceAll("");
    }

    private static String lastExampleNamedIn(String doc) {
        Matcher path = EXAMPLE_PATH.matcher(doc);
        String last = null;
        while (path.find()) {
            last = path.group(1);
        }
        return last;
    }

    private static Path example(String name) {
        return Path.of("src", "main", "java", "io", "sluice", "examples", name + ".java");
    }

    private static List<String> trimmedLines(String text) {
        return text.lines().map(String::strip).filter(line -> !line.isEmpty()).toList();
    }
}
