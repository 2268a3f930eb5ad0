package io.sluice.tck.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** A temporary directory for one test class, deleted with everything in it by {@link #close()}. */
public final class TempDir implements AutoCloseable {

    private final Path root;

    public TempDir(String prefix) {
        try {
            this.root = Files.createTempDirectory("sluice-tck-" + prefix + "-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temp directory for " + prefix, e);
        }
    }

    public Path root() {
        return root;
    }

    public Path resolve(String name) {
        return root.resolve(name);
    }

    @Override
    public void close() {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot delete " + path, e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + root, e);
        }
    }
}
