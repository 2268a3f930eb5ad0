package io.sluice.internal;

import java.io.IOException;
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

    private RegularFiles() {
    }

    /**
     * Throws unless {@code path} is a regular file: {@code NoSuchFileException} if nothing is
     * there, a {@link FileSystemException} naming the path and its type otherwise.
     */
    public static void requireRegular(Path path) throws IOException {
        refuseIfNotRegular(path, Files.readAttributes(path, BasicFileAttributes.class));
    }

    /**
     * Throws unless {@code path} is a regular file or nothing (a missing file, or a symbolic link
     * to a missing file): a target a write may create or replace.
     */
    public static void requireRegularOrAbsent(Path path) throws IOException {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(path, BasicFileAttributes.class);
        } catch (NoSuchFileException absent) {
            return;
        }
        refuseIfNotRegular(path, attributes);
    }

    private static void refuseIfNotRegular(Path path, BasicFileAttributes attributes) throws IOException {
        if (attributes.isRegularFile()) {
            return;
        }
        if (attributes.isDirectory()) {
            throw new FileSystemException(path.toString(), null, "Is a directory");
        }
        throw new FileSystemException(path.toString(), null, "not a regular file but " + typeOf(path)
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
