package io.sluice.reliability;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Open descriptors of this JVM, from {@code /proc/self/fd} (Linux). A channel is closed on the
 * operation's drain, which may run just after a cancelled stage completes, so checks poll until a
 * deadline instead of sampling once.
 */
final class OpenFiles {

    static final Duration DEADLINE = Duration.ofSeconds(10);
    private static final Path FDS = Paths.get("/proc/self/fd");

    private OpenFiles() {
    }

    static boolean supported() {
        return Files.isDirectory(FDS);
    }

    /** How many descriptors are open now. */
    static int count() {
        return targets().size();
    }

    /** What each open descriptor points at (entries that vanish while listing are skipped). */
    static List<String> targets() {
        List<String> result = new ArrayList<>();
        try (Stream<Path> entries = Files.list(FDS)) {
            for (Path fd : (Iterable<Path>) entries::iterator) {
                try {
                    result.add(Files.readSymbolicLink(fd).toString());
                } catch (IOException closedMeanwhile) {
                    // the descriptor was closed while we listed; it is not open
                }
            }
        } catch (IOException e) {
            throw new AssertionError("cannot list " + FDS, e);
        }
        return result;
    }

    /** Descriptors pointing into {@code directory} (or at it). */
    static List<String> under(Path directory) {
        String prefix = directory.toAbsolutePath().toString();
        List<String> result = new ArrayList<>();
        for (String target : targets()) {
            if (target.startsWith(prefix)) {
                result.add(target);
            }
        }
        return result;
    }

    /**
     * Waits until no descriptor points into {@code directory} and at most {@code baseline} are open;
     * fails naming what is still open at the deadline.
     */
    static void awaitClosed(Path directory, int baseline) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        for (;;) {
            List<String> inside = under(directory);
            int open = count();
            if (inside.isEmpty() && open <= baseline) {
                return;
            }
            if (System.nanoTime() > deadline) {
                fail("descriptors still open after " + DEADLINE + ": " + open + " open (baseline " + baseline
                        + "), into " + directory + ": " + inside);
            }
            pause();
        }
    }

    static void pause() {
        try {
            Thread.sleep(10);               // polling with a deadline: the close runs on another thread
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
