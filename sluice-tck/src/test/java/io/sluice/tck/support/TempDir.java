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
        this(prefix, null);
    }

    private TempDir(String prefix, Path parent) {
        try {
            this.root = parent == null
                    ? Files.createTempDirectory("sluice-tck-" + prefix + "-")
                    : Files.createTempDirectory(parent, "sluice-tck-" + prefix + "-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temp directory for " + prefix, e);
        }
    }

    /**
     * A directory in memory ({@code /dev/shm}, a tmpfs) where the machine has one, else as
     * {@link #TempDir(String)}. For writers that force: an {@code fsync} on tmpfs costs nothing, so
     * a busy disk cannot make a protocol test miss its timeouts. The TCK checks the protocol, not
     * the device; durability on a real device is tested in sluice-core's reliability tests.
     */
    public static TempDir inMemory(String prefix) {
        Path shm = Path.of("/dev/shm");
        return new TempDir(prefix, Files.isDirectory(shm) && Files.isWritable(shm) ? shm : null);
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
