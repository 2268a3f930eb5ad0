package io.sluice.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Deleting a folder the lab's tools made for themselves (a run's scratch, a child's files), with all it holds. */
public final class FileTrees {

    private FileTrees() {}

    /** Deletes {@code root} and everything under it, deepest first; nothing if it is not there. */
    public static void delete(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
