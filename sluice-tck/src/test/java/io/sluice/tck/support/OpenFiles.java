package io.sluice.tck.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The files under a directory that this JVM holds open, read from {@code /proc/self/fd} (Linux).
 * Where there is no {@code /proc}, {@link #supported()} is false and callers skip the check.
 */
public final class OpenFiles {

    private static final Path FDS = Paths.get("/proc/self/fd");

    private OpenFiles() {
    }

    public static boolean supported() {
        return Files.isDirectory(FDS);
    }

    public static List<Path> under(Path dir) {
        List<Path> open = new ArrayList<>();
        try (Stream<Path> fds = Files.list(FDS)) {
            fds.forEach(fd -> {
                try {
                    Path target = Files.readSymbolicLink(fd);
                    if (target.startsWith(dir)) {
                        open.add(target);
                    }
                } catch (IOException | UnsupportedOperationException closedMeanwhile) {
                    // the descriptor was closed while listing: not open
                }
            });
        } catch (IOException e) {
            throw new IllegalStateException("cannot list " + FDS, e);
        }
        return open;
    }
}
