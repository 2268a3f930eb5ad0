package io.sluice.testkit;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * This JVM's open file descriptors, read from {@code /proc/self/fd} (Linux; elsewhere the listing
 * methods fail, except {@link #inside}, which sees nothing). A channel is often closed on an
 * operation's drain, just after its stage completes, so the {@code await} methods poll until
 * {@link #DEADLINE}. Loading the class makes the JDK open its process-wide descriptors, so that a
 * baseline taken afterwards does not count them as a test's. Stateless and thread-safe.
 */
public final class OpenFiles {

    /** How long the {@code await} methods wait before they fail. */
    public static final Duration DEADLINE = Duration.ofSeconds(10);

    private static final Path FDS = Paths.get("/proc/self/fd");

    static { // the first FileChannel's dispatcher keeps a socket for async close
        try {
            Path file = Files.createTempFile("sluice-fd-warm-up", ".tmp");
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                channel.write(ByteBuffer.allocate(1));
                channel.force(true);
            } finally {
                Files.delete(file);
            }
        } catch (IOException e) {
            throw new ExceptionInInitializerError(e);
        }
        new SecureRandom().nextBytes(new byte[16]); // SecureRandom keeps its devices open
    }

    private OpenFiles() {}

    /** Whether {@code /proc/self/fd} can be listed. */
    public static boolean supported() {
        return Files.isDirectory(FDS);
    }

    public static int count() {
        return targets().size();
    }

    /** What each open descriptor points at; descriptors closed while listing are left out. */
    public static List<String> targets() {
        List<String> result = new ArrayList<>();
        try (Stream<Path> entries = Files.list(FDS)) {
            for (Path fd : (Iterable<Path>) entries::iterator) {
                try {
                    result.add(Files.readSymbolicLink(fd).toString());
                } catch (IOException | UnsupportedOperationException closedMeanwhile) {
                    // the descriptor was closed while we listed: it is not open
                }
            }
        } catch (IOException e) {
            throw new AssertionError("cannot list " + FDS, e);
        }
        return result;
    }

    /**
     * What was opened since {@code before} (a multiset difference), leaving out what the JVM opens
     * lazily for itself: class files in jars and the runtime image, this listing.
     */
    public static List<String> openedSince(List<String> before) {
        List<String> now = targets();
        for (String old : before) {
            now.remove(old);
        }
        now.removeIf(
                target -> target.endsWith(".jar") || target.endsWith("/lib/modules") || target.startsWith("/proc/"));
        return now;
    }

    /** Descriptors pointing at {@code directory} or anything beneath it (by path components). */
    public static List<String> under(Path directory) {
        return open(directory, true);
    }

    /**
     * Descriptors pointing at files beneath {@code directory}, the directory itself left out: a sync
     * write forces a new file's directory, and that uninterruptible force may still hold it open
     * just after a cancel. Empty where {@linkplain #supported() unsupported}.
     */
    public static List<String> inside(Path directory) {
        return supported() ? open(directory, false) : List.of();
    }

    private static List<String> open(Path directory, boolean withDirectory) {
        List<Path> roots = new ArrayList<>();
        roots.add(directory.toAbsolutePath().normalize());
        try {
            roots.add(directory.toRealPath()); // /proc shows resolved links (/tmp -> /private/tmp)
        } catch (IOException gone) {
            // deleted already: the absolute path is all there is to match
        }
        return targets().stream()
                .filter(target -> roots.stream().anyMatch(root -> {
                    Path path = Paths.get(target);
                    return path.startsWith(root) && (withDirectory || !path.equals(root));
                }))
                .collect(Collectors.toList());
    }

    /**
     * Waits until nothing points into {@code directory} nor was {@link #openedSince} {@code baseline};
     * fails naming what is still open at the deadline.
     */
    public static void awaitClosed(Path directory, List<String> baseline) {
        await(() -> {
            List<String> inside = under(directory);
            List<String> opened = openedSince(baseline);
            return inside.isEmpty() && opened.isEmpty()
                    ? null
                    : "into " + directory + ": " + inside + "; opened since the baseline: " + opened;
        });
    }

    /** Waits until no descriptor points into {@code directory}; fails naming them at the deadline. */
    public static void awaitNoneUnder(Path directory) {
        await(() -> {
            List<String> open = under(directory);
            return open.isEmpty() ? null : "into " + directory + ": " + open;
        });
    }

    /** Waits until at most {@code baseline} descriptors are open; fails with the count at the deadline. */
    public static void awaitAtMost(long baseline) {
        await(() -> {
            int now = count();
            return now <= baseline ? null : now + ", expected at most " + baseline + ": " + targets();
        });
    }

    /** Polls {@code stillOpen} (null: nothing is) until {@link #DEADLINE}, then fails with what it says. */
    private static void await(Supplier<String> stillOpen) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        String open;
        while ((open = stillOpen.get()) != null) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("descriptors still open after " + DEADLINE + ": " + open);
            }
            pause();
        }
    }

    /** Sleeps one polling interval (10 ms); an interrupt fails the caller's check. */
    public static void pause() {
        try {
            Thread.sleep(10); // polling with a deadline: the close runs on another thread
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
