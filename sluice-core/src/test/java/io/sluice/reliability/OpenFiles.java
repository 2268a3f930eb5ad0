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

    static {
        warmUp();
    }

    private OpenFiles() {
    }

    /**
     * Makes the JDK open its process-wide descriptors before any baseline is taken: the first
     * FileChannel loads the file dispatcher, which keeps a socket for asynchronous close, and
     * SecureRandom keeps its entropy devices open.
     */
    private static void warmUp() {
        try {
            Path file = Files.createTempFile("sluice-fd-warm-up", ".tmp");
            try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(file,
                    java.nio.file.StandardOpenOption.WRITE)) {
                channel.write(java.nio.ByteBuffer.allocate(1));
                channel.force(true);
            } finally {
                Files.delete(file);
            }
        } catch (IOException e) {
            throw new ExceptionInInitializerError(e);
        }
        new java.security.SecureRandom().nextBytes(new byte[16]);
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

    /**
     * What was opened since {@code before} (a multiset difference), leaving out what the JVM opens
     * lazily for itself: class files in jars and the runtime image, entropy devices, this listing.
     */
    static List<String> openedSince(List<String> before) {
        List<String> now = targets();
        for (String old : before) {
            now.remove(old);
        }
        now.removeIf(target -> target.endsWith(".jar") || target.endsWith("/lib/modules")
                || target.startsWith("/proc/"));
        return now;
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
     * Waits until no descriptor points into {@code directory} and nothing is open that was not open
     * in {@code baseline} (see {@link #openedSince}); fails naming what is still open at the deadline.
     */
    static void awaitClosed(Path directory, List<String> baseline) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        for (;;) {
            List<String> inside = under(directory);
            List<String> opened = openedSince(baseline);
            if (inside.isEmpty() && opened.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                fail("descriptors still open after " + DEADLINE + ": into " + directory + ": " + inside
                        + "; opened since the baseline: " + opened);
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
