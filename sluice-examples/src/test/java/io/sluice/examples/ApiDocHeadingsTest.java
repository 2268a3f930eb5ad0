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
 * The API documentation promise for the public types of the exported packages ({@code io.sluice},
 * {@code io.sluice.demand}, {@code io.sluice.http}), read from sluice-core's sources (Maven runs
 * tests in the module directory):
 *
 * <ul>
 *   <li>every public type's class Javadoc has the headings {@code <b>Threading:</b>} and
 *       {@code <b>Errors:</b>};</li>
 *   <li>an <em>I/O type</em> also has {@code <b>Backpressure:</b>} and {@code <b>Resources:</b>}.
 *       A type is an I/O type when its declaration extends or implements a {@code Publisher}
 *       (Reactive Streams or {@code Flow}) or an {@code HttpResponse.BodyHandler}, or when its
 *       source, comments left out, declares a public method whose return type is
 *       {@code BytePublisher}, {@code Publisher}, {@code Flow.Publisher},
 *       {@code CompletionStage}, {@code CompletableFuture} or {@code HttpResponse.BodySubscriber}:
 *       calling it starts a read or a write, so a caller needs to know how demand is met and what
 *       is opened and closed. Other types may carry those two headings when they have something
 *       to say (a pool's bound, an executor's shutdown);</li>
 *   <li>no heading is filler: its first clause may not say only "none", "nothing", "holds none",
 *       "no resources", "not applicable", "not affected" and the like. A heading with nothing to
 *       say is left out instead, where the rules above allow it.</li>
 * </ul>
 */
class ApiDocHeadingsTest {

    private static final Path API_SOURCES = Path.of("..", "sluice-core", "src", "main", "java", "io", "sluice");
    private static final List<String> EVERY_TYPE = List.of("Threading", "Errors");
    private static final List<String> IO_TYPE = List.of("Backpressure", "Resources");
    private static final List<String> ALL_HEADINGS = List.of("Threading", "Backpressure", "Resources", "Errors");
    private static final Pattern PUBLIC_TYPE = Pattern.compile(
            "(/\\*\\*(?:(?!\\*/).)*\\*/)\\s*(?:@\\w+\\s*)*public\\s+(?:final\\s+|abstract\\s+)*"
                    + "(?:class|interface|enum|record)\\s+(\\w+)([^{]*)\\{",
            Pattern.DOTALL);
    private static final Pattern IO_SUPERTYPE =
            Pattern.compile("\\b(?:extends|implements)\\b.*\\b(?:Publisher|BodyHandler)\\b", Pattern.DOTALL);
    private static final Pattern IO_METHOD =
            Pattern.compile("\\bpublic\\s+(?:(?:static|final|synchronized|default)\\s+)*(?:<[^;{()]*>\\s+)?"
                    + "(?:[\\w.]+\\.)?(?:BytePublisher|Publisher|CompletionStage|CompletableFuture|BodySubscriber)"
                    + "\\s*(?:<[^;{()]*>)?\\s+\\w+\\s*\\(");
    private static final Pattern COMMENT = Pattern.compile("/\\*(?:(?!\\*/).)*\\*/|//[^\\n]*", Pattern.DOTALL);
    private static final Pattern FILLER = Pattern.compile("(?i)\\s*(?:(?:\\w+\\s+){0,3}(?:holds?|has|have|needs?)\\s+)?"
            + "(?:none|nothing(?:\\s+of\\s+its\\s+own)?|no\\s+resources|not\\s+applicable|n/a"
            + "|not\\s+affected(?:\\s+by\\s+[\\w\\s]+)?|not\\s+relevant)(?:\\s+itself)?\\s*");

    @Test
    void everyPublicApiTypeDocumentsWhatItsCallersNeedWithoutFiller() throws IOException {
        assertTrue(Files.isDirectory(API_SOURCES), "sluice-core sources not found at " + API_SOURCES.toAbsolutePath());
        List<String> problems = new ArrayList<>();
        List<String> ioTypes = new ArrayList<>();
        int types = 0;
        for (Path source : apiSources()) {
            String text = Files.readString(source);
            Matcher type = PUBLIC_TYPE.matcher(text);
            if (!type.find()) {
                continue; // package-info, or a package-private type
            }
            types++;
            String name = type.group(2);
            String javadoc = type.group(1);
            boolean io = IO_SUPERTYPE.matcher(type.group(3)).find()
                    || IO_METHOD.matcher(COMMENT.matcher(text).replaceAll(" ")).find();
            if (io) {
                ioTypes.add(name);
            }
            List<String> required = new ArrayList<>(EVERY_TYPE);
            if (io) {
                required.addAll(IO_TYPE);
            }
            for (String heading : required) {
                if (!javadoc.contains("<b>" + heading + ":</b>")) {
                    problems.add(name + " lacks <b>" + heading + ":</b>"
                            + (io && IO_TYPE.contains(heading) ? " (an I/O type)" : ""));
                }
            }
            for (String heading : ALL_HEADINGS) {
                String firstClause = firstClauseAfter(javadoc, "<b>" + heading + ":</b>");
                if (firstClause != null && FILLER.matcher(firstClause).matches()) {
                    problems.add(name + " has a filler <b>" + heading + ":</b> \"" + firstClause.strip() + "\"");
                }
            }
        }
        assertTrue(types > 0, "no public types found under " + API_SOURCES);
        // the I/O classification must keep seeing the types that start reads and writes
        assertTrue(
                ioTypes.containsAll(
                        List.of("ReactiveFile", "ByteChannels", "ByteStreams", "BytePublisher", "FileBodyHandler")),
                "I/O types found: " + ioTypes);
        assertEquals(List.of(), problems);
    }

    /** The text after {@code heading} up to the first '.', ';' or ':' with Javadoc's leading stars removed, or null. */
    private static String firstClauseAfter(String javadoc, String heading) {
        int at = javadoc.indexOf(heading);
        if (at < 0) {
            return null;
        }
        String rest = javadoc.substring(at + heading.length()).replaceAll("\\n\\s*\\*", " ");
        Matcher end = Pattern.compile("[.;:]").matcher(rest);
        return end.find() ? rest.substring(0, end.start()) : rest;
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
