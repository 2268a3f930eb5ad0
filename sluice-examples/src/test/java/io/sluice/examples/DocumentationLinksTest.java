package io.sluice.examples;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every relative link of every Markdown page in the repository (the library's docs, the lab's
 * reports, the results' READMEs) leads somewhere: its file or folder exists and, where it names a
 * heading of a Markdown page ({@code PAGE.md#anchor}), the page has that heading, by the anchors
 * GitHub derives from headings. A page or folder that moves and leaves a link behind fails here.
 * Reads the repository from the module directory, where Maven runs tests.
 */
class DocumentationLinksTest {

    private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6} +(.+?) *#* *$", Pattern.MULTILINE);
    private static final Pattern FENCE = Pattern.compile("^```.*?^```", Pattern.MULTILINE | Pattern.DOTALL);

    private final Map<Path, Set<String>> anchors = new HashMap<>();

    @Test
    void everyRelativeLinkOfEveryPageLeadsToAFileAndHeadingThatExist() throws IOException {
        List<Path> pages = pages();
        assertTrue(pages.size() > 10, "the repository's pages were found: " + pages);
        List<String> broken = new ArrayList<>();
        for (Path page : pages) {
            String text = FENCE.matcher(Files.readString(page)).replaceAll("");
            Matcher link = LINK.matcher(text);
            while (link.find()) {
                String problem = problem(page, link.group(1));
                if (problem != null) {
                    broken.add(REPOSITORY.relativize(page) + ": (" + link.group(1) + ") " + problem);
                }
            }
        }
        assertEquals(List.of(), broken, "links that lead nowhere");
    }

    @Test
    void anchorsAreDerivedAsGitHubDerivesThem() {
        assertEquals("the-numbers", anchor("The numbers"));
        assertEquals("using-it-with-", anchor("Using it with …"));
        assertEquals("set-up-jdk-17-and-maven", anchor("Set up (JDK 17+ and Maven)"));
        assertEquals("whats-inside-readmemd", anchor("What's inside `README.md`"));
    }

    /** Why {@code target}, linked from {@code page}, leads nowhere; null when it leads somewhere. */
    private String problem(Path page, String target) {
        if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
            return null; // http:, https:, mailto:: outside the repository
        }
        int hash = target.indexOf('#');
        String path = hash < 0 ? target : target.substring(0, hash);
        String fragment = hash < 0 ? null : target.substring(hash + 1);
        Path resolved = path.isEmpty() ? page : page.getParent().resolve(path).normalize();
        if (!resolved.startsWith(REPOSITORY)) {
            return "leaves the repository";
        }
        if (!Files.exists(resolved)) {
            return "no such file or folder";
        }
        if (fragment != null
                && resolved.toString().endsWith(".md")
                && !anchorsOf(resolved).contains(fragment)) {
            return "no heading with anchor #" + fragment + " in " + REPOSITORY.relativize(resolved);
        }
        return null;
    }

    private Set<String> anchorsOf(Path page) {
        return anchors.computeIfAbsent(page, file -> {
            try {
                Set<String> found = new HashSet<>();
                Map<String, Integer> seen = new HashMap<>();
                Matcher heading =
                        HEADING.matcher(FENCE.matcher(Files.readString(file)).replaceAll(""));
                while (heading.find()) {
                    String anchor = anchor(heading.group(1));
                    int times = seen.merge(anchor, 1, Integer::sum);
                    found.add(times == 1 ? anchor : anchor + "-" + (times - 1));
                }
                return found;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** GitHub's anchor of a heading: lower case, punctuation dropped but '-' and '_', spaces to '-'. */
    private static String anchor(String heading) {
        String text = heading.replaceAll("`", "").replaceAll("\\[([^]]*)]\\([^)]*\\)", "$1");
        return text.toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{N} _-]", "")
                .replace(' ', '-');
    }

    /** Every Markdown page of the repository, none in a build's output or a hidden folder. */
    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>();
        Files.walkFileTree(REPOSITORY, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path folder, BasicFileAttributes attributes) {
                String name = folder.getFileName().toString();
                boolean skipped = !folder.equals(REPOSITORY) && (name.equals("target") || name.startsWith("."));
                return skipped ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                if (file.toString().endsWith(".md")) {
                    pages.add(file);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        pages.sort(null);
        return pages;
    }
}
