package io.sluice.lab;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The files of the repository that its checks read: every file under a folder but those in a build's
 * output ({@code target/}), a hidden folder ({@code .git/}, {@code .mvn/}) or installed JavaScript
 * packages ({@code node_modules/}). The generated blocks, the figures outside them and the charts'
 * data are checked over the same files.
 */
public final class RepositoryFiles {

    private RepositoryFiles() {}

    /** The files under {@code root} that {@code wanted} accepts, by their path relative to {@code root}; sorted. */
    public static List<Path> under(Path root, Predicate<Path> wanted) throws IOException {
        List<Path> files = new ArrayList<>();
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path folder, BasicFileAttributes attributes) {
                String name =
                        folder.getFileName() == null ? "" : folder.getFileName().toString();
                boolean skipped = !folder.equals(root)
                        && (name.equals("target") || name.equals("node_modules") || name.startsWith("."));
                return skipped ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                if (wanted.test(root.relativize(file))) {
                    files.add(file);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        files.sort(null);
        return files;
    }
}
