package io.sluice.internal.write;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The names of the temporary files that atomic-replace writes create next to their targets, and
 * the cleanup of those left behind by a killed process.
 *
 * <p>A name is {@code .sluice-} followed by 32 lowercase hex digits (128 bits from
 * {@link SecureRandom}) and {@code .tmp}, e.g. {@code .sluice-3f2a...9c.tmp}. Nothing else matches
 * {@link #isTemporaryName}, so the cleanup never touches a user's file unless it is named exactly so.
 */
public final class AtomicTemporaries {

    static final String PREFIX = ".sluice-";
    static final String SUFFIX = ".tmp";
    private static final int RANDOM_BYTES = 16;
    private static final Pattern NAME = Pattern.compile("\\.sluice-[0-9a-f]{32}\\.tmp");
    private static final SecureRandom RANDOM = new SecureRandom();

    private AtomicTemporaries() {}

    /** A fresh unpredictable temporary file name (not a path). */
    public static String newName() {
        byte[] bytes = new byte[RANDOM_BYTES];
        RANDOM.nextBytes(bytes);
        return PREFIX + HexFormat.of().formatHex(bytes) + SUFFIX;
    }

    /** Whether {@code fileName} has exactly the shape of {@link #newName()}. */
    public static boolean isTemporaryName(String fileName) {
        return NAME.matcher(fileName).matches();
    }

    /**
     * Deletes, in {@code directory} only (not below it), every regular file or symbolic link whose
     * name {@link #isTemporaryName matches} and whose last modification is at least
     * {@code minimumAge} old. Links are deleted, never followed.
     *
     * @return how many entries were deleted
     * @throws NoSuchFileException if {@code directory} does not exist
     * @throws IOException if the directory cannot be listed or an entry cannot be deleted (entries
     *     deleted before the failure stay deleted; the first failure is thrown, later ones suppressed)
     */
    public static int removeStale(Path directory, Duration minimumAge) throws IOException {
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(minimumAge, "minimumAge");
        if (minimumAge.isNegative()) {
            throw new IllegalArgumentException("minimumAge must not be negative, was " + minimumAge);
        }
        Instant newest = Instant.now().minus(minimumAge);
        int removed = 0;
        IOException failure = null;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(
                directory, entry -> isTemporaryName(entry.getFileName().toString()))) {
            for (Path entry : entries) {
                try {
                    BasicFileAttributes attributes =
                            Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                    boolean ours = attributes.isRegularFile() || attributes.isSymbolicLink();
                    if (ours
                            && !attributes.lastModifiedTime().toInstant().isAfter(newest)
                            && Files.deleteIfExists(entry)) {
                        removed++;
                    }
                } catch (NoSuchFileException gone) {
                    // removed meanwhile (its write failed, or another cleanup ran): nothing to do
                } catch (IOException e) {
                    if (failure == null) {
                        failure = e;
                    } else {
                        failure.addSuppressed(e);
                    }
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
        return removed;
    }
}
