package io.sluice.examples;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The API documentation promise: every public type of the exported packages has the
 * four headings Threading, Backpressure, Resources and Errors in its class Javadoc. Reads
 * sluice-core's sources (Maven runs tests in the module directory).
 */
class ApiDocHeadingsTest {

    private static final Path API_SOURCES = Path.of("..", "sluice-core", "src", "main", "java", "io", "sluice");
    private static final List<String> HEADINGS = List.of("Threading", "Backpressure", "Resources", "Errors");
    private static final Pattern PUBLIC_TYPE = Pattern.compile(
            "(/\\*\\*(?:(?!\\*/).)*\\*/)\\s*(?:@\\w+\\s*)*public\\s+(?:final\\s+|abstract\\s+)*"
                    + "(?:class|interface|enum|record)\\s+(\\w+)", Pattern.DOTALL);

    @Test
    void everyPublicApiTypeDocumentsThreadingBackpressureResourcesAndErrors() throws IOException {
        assertTrue(Files.isDirectory(API_SOURCES), "sluice-core sources not found at " + API_SOURCES.toAbsolutePath());
        List<String> missing = new ArrayList<>();
        int types = 0;
        for (Path source : apiSources()) {
            Matcher type = PUBLIC_TYPE.matcher(Files.readString(source));
            if (!type.find()) {
                continue;                           // package-info, or a package-private type
            }
            types++;
            for (String heading : HEADINGS) {
                if (!type.group(1).contains("<b>" + heading + ":</b>")) {
                    missing.add(type.group(2) + " lacks <b>" + heading + ":</b>");
                }
            }
        }
        assertTrue(types > 0, "no public types found under " + API_SOURCES);
        assertEquals(List.of(), missing);
    }

    private static List<Path> apiSources() throws IOException {
        List<Path> sources = new ArrayList<>();
        for (Path packageDir : List.of(API_SOURCES, API_SOURCES.resolve("demand"), API_SOURCES.resolve("http"))) {
            try (Stream<Path> files = Files.list(packageDir)) {
                files.filter(file -> file.toString().endsWith(".java")).sorted().forEach(sources::add);
            }
        }
        return sources;
    }
}
