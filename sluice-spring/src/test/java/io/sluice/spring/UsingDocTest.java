package io.sluice.spring;

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
 * docs/USING.md's Spring WebFlux section quotes {@link FileController}: each of its Java blocks must
 * be code of that file, line for line (indentation aside), so the quoted code is the code
 * {@link FileControllerTest} runs. Reads the page from the module directory, where Maven runs tests.
 */
class UsingDocTest {

    private static final String HEADING = "## Spring WebFlux: uploads to disk, downloads from disk";
    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)\\n```", Pattern.DOTALL);

    @Test
    void everyJavaBlockOfTheSpringSectionIsCodeOfFileController() throws IOException {
        String page = Files.readString(Path.of("..", "docs", "USING.md"));
        int start = page.indexOf(HEADING);
        assertTrue(start >= 0, "USING.md has the section " + HEADING);
        int end = page.indexOf("\n## ", start + HEADING.length());
        String section = page.substring(start, end < 0 ? page.length() : end);
        List<String> code = trimmedLines(
                Files.readString(Path.of("src", "test", "java", "io", "sluice", "spring", "FileController.java")));

        List<String> problems = new ArrayList<>();
        int blocks = 0;
        for (Matcher block = JAVA_BLOCK.matcher(section); block.find(); blocks++) {
            List<String> quoted = trimmedLines(block.group(1));
            if (Collections.indexOfSubList(code, quoted) < 0) {
                problems.add("FileController.java does not contain:\n" + String.join("\n", quoted));
            }
        }

        assertEquals(List.of(), problems);
        assertEquals(3, blocks, "the section quotes the part upload, the raw upload and the download");
    }

    private static List<String> trimmedLines(String text) {
        return text.lines().map(String::strip).filter(line -> !line.isEmpty()).toList();
    }
}
