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
 * docs/USING.md's section on lent chunks quotes {@link FileDigests} and {@link HttpTransfers}: each
 * of its Java blocks must be the code of the example linked just before it, line for line
 * (indentation aside), so the quoted code is the code these tests run. Reads the page and the
 * sources from the module directory, where Maven runs tests.
 */
class LentChunksDocTest {

    private static final String HEADING = "## Lent chunks: reads without garbage";
    private static final Pattern EXAMPLE_LINK =
            Pattern.compile("\\(\\.\\./sluice-examples/src/main/java/io/sluice/examples/(\\w+)\\.java\\)");
    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)\\n```", Pattern.DOTALL);

    @Test
    void everyJavaBlockOfTheSectionIsTheCodeOfTheExampleLinkedBeforeIt() throws IOException {
        String section = section(Files.readString(Path.of("..", "docs", "USING.md")));
        List<String> problems = new ArrayList<>();
        List<String> quotedFrom = new ArrayList<>();
        Matcher block = JAVA_BLOCK.matcher(section);
        while (block.find()) {
            String example = lastExampleLinkedIn(section.substring(0, block.start()));
            if (example == null) {
                problems.add("a Java block follows no example link:\n" + block.group(1));
                continue;
            }
            quotedFrom.add(example);
            List<String> quoted = trimmedLines(block.group(1));
            List<String> code = trimmedLines(
                    Files.readString(Path.of("src", "main", "java", "io", "sluice", "examples", example + ".java")));
            if (Collections.indexOfSubList(code, quoted) < 0) {
                problems.add(example + ".java does not contain the quoted code:\n" + String.join("\n", quoted));
            }
        }
        assertEquals(List.of(), problems);
        assertEquals(List.of("FileDigests", "HttpTransfers"), quotedFrom, "the section quotes both examples");
    }

    private static String section(String page) {
        int start = page.indexOf(HEADING);
        assertTrue(start >= 0, "USING.md has the section " + HEADING);
        int end = page.indexOf("\n## ", start + HEADING.length());
        return page.substring(start, end < 0 ? page.length() : end);
    }

    private static String lastExampleLinkedIn(String text) {
        Matcher link = EXAMPLE_LINK.matcher(text);
        String last = null;
        while (link.find()) {
            last = link.group(1);
        }
        return last;
    }

    private static List<String> trimmedLines(String text) {
        return text.lines().map(String::strip).filter(line -> !line.isEmpty()).toList();
    }
}
