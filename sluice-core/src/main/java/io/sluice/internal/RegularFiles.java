package io.sluice.internal;

import java.io.File;
import java.io.IOException;
import java.nio.file.AccessMode;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * File operations work on regular files only. A directory, FIFO, socket or device is refused
 * before it is opened: a FIFO's open waits for a peer (maybe forever), and a FIFO, socket or
 * device has no size and no positions to read at, cannot be forced, and must never be replaced
 * by an atomic rename. Pipes and devices are streams: {@code ByteChannels} over a channel the user
 * opens serves them. Symbolic links are followed, as the open would follow them.
 */
public final class RegularFiles {

    private static final int TYPE_MASK = 0170000;
    private static final int FIFO = 0010000;
    private static final int CHARACTER_DEVICE = 0020000;
    private static final int BLOCK_DEVICE = 0060000;
    private static final int SOCKET = 0140000;

    private RegularFiles() {}

    /**
     * Throws unless {@code path} is a regular file: {@code NoSuchFileException} if nothing is
     * there, a {@link FileSystemException} naming the path and its type otherwise.
     */
    public static void requireRegular(Path path) throws IOException {
        requireRegular(path, plainFile(path));
    }

    /** As {@link #requireRegular(Path)}, with {@code path}'s {@link #plainFile} made beforehand. */
    public static void requireRegular(Path path, File file) throws IOException {
        if (file != null && file.isFile()) {
            return; // one stat, no attributes object
        }
        refuseIfNotRegular(path, Files.readAttributes(path, BasicFileAttributes.class));
    }

    /**
     * Throws unless {@code path} is a regular file or nothing (a missing file, or a symbolic link
     * to a missing file): a target a write may create or replace.
     *
     * @return whether a regular file is there
     */
    public static boolean requireRegularOrAbsent(Path path) throws IOException {
        File file = plainFile(path);
        if (file != null) {
            if (file.isFile()) {
                return true;
            }
            if (!file.exists()) {
                // nothing there, or a stat that failed otherwise (no search permission, a loop of
                // links): the open fails on it too, so it cannot open a file of another type
                return false;
            }
        }
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(path, BasicFileAttributes.class);
        } catch (NoSuchFileException absent) {
            return false;
        }
        refuseIfNotRegular(path, attributes);
        return true;
    }

    /**
     * Throws unless {@code path} is a regular file this process may read: as {@link #requireRegular},
     * then {@code AccessDeniedException} (or whatever the access check throws) if it may not.
     */
    public static void requireReadableRegular(Path path) throws IOException {
        requireReadableRegular(path, plainFile(path));
    }

    /** As {@link #requireReadableRegular(Path)}, with {@code path}'s {@link #plainFile} made beforehand. */
    public static void requireReadableRegular(Path path, File file) throws IOException {
        if (file != null && file.isFile() && file.canRead()) {
            return; // a stat and an access check, no attributes object
        }
        refuseIfNotRegular(path, Files.readAttributes(path, BasicFileAttributes.class));
        path.getFileSystem().provider().checkAccess(path, AccessMode.READ);
    }

    /**
     * {@code path} as a {@link File} where the two name the same file, else null. A stat through
     * {@code File} answers yes or no without an exception, where the NIO calls of Java 17 throw
     * (and fill in a stack trace for) every file they do not find, which for a write's new target
     * is most of the check's cost. Only paths of the {@code file} scheme have {@code File}s, and
     * a name whose bytes do not decode (a replacement character in its string) might stand for
     * another file, so both take the NIO calls. Names the path's file at any time: a caller that
     * checks one path often may make it once and keep it.
     */
    public static File plainFile(Path path) {
        if (!"file".equals(path.getFileSystem().provider().getScheme())) {
            return null;
        }
        File file;
        try {
            file = path.toFile();
        } catch (UnsupportedOperationException e) {
            return null;
        }
        return file.getPath().indexOf('\uFFFD') < 0 ? file : null;
    }

    private static void refuseIfNotRegular(Path path, BasicFileAttributes attributes) throws IOException {
        if (attributes.isRegularFile()) {
            return;
        }
        if (attributes.isDirectory()) {
            throw new FileSystemException(path.toString(), null, "Is a directory");
        }
        throw new FileSystemException(
                path.toString(),
                null,
                "not a regular file but " + typeOf(path)
                        + "; file operations read and write regular files only (ByteChannels serves pipes and devices)");
    }

    /** The kind of a non-regular, non-directory file, from the {@code unix} view where there is one. */
    private static String typeOf(Path path) {
        int mode;
        try {
            mode = (Integer) Files.getAttribute(path, "unix:mode");
        } catch (IOException | RuntimeException unavailable) {
            return "a special file";
        }
        switch (mode & TYPE_MASK) {
            case FIFO:
                return "a FIFO (named pipe)";
            case CHARACTER_DEVICE:
                return "a character device";
            case BLOCK_DEVICE:
                return "a block device";
            case SOCKET:
                return "a socket";
            default:
                return "a special file";
        }
    }
}
