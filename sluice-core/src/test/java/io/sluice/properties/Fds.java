package io.sluice.properties;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * This process's open descriptors that point into a directory, from {@code /proc/self/fd}. Where
 * there is no {@code /proc} (not Linux) it sees none, so the properties still check content,
 * order and outcomes there and only their "closed" checks cannot fail.
 */
final class Fds {

    private static final Path FDS = Paths.get("/proc/self/fd");

    private Fds() {
    }

    static boolean supported() {
        return Files.isDirectory(FDS);
    }

    /**
     * What the descriptors pointing at files in {@code directory} point at; empty if none. The
     * directory itself is left out: a sync write forces it (so that a new file's entry is durable),
     * and that force, which cannot be interrupted, may still hold it open after a cancel.
     */
    static List<String> inside(Path directory) {
        if (!supported()) {
            return List.of();
        }
        String prefix = directory.toAbsolutePath() + "/";
        List<String> open = new ArrayList<>();
        String[] entries = FDS.toFile().list();
        if (entries == null) {
            throw new AssertionError("cannot list " + FDS);
        }
        for (String entry : entries) {
            try {
                String target = Files.readSymbolicLink(FDS.resolve(entry)).toString();
                if (target.startsWith(prefix)) {
                    open.add(target);
                }
            } catch (IOException closedMeanwhile) {
                // closed while we listed: not open
            }
        }
        return open;
    }
}
