package io.sluice.internal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Forces a directory, so that a file created in it or renamed into it survives a crash: forcing
 * the file makes its data and inode durable, not its directory entry (fsync(2), "Notes").
 */
public final class Directories {

    private Directories() {}

    /** Forces the directory {@code file} lies in (after making the path absolute); see {@link #force}. */
    public static void forceParentOf(Path file) {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            force(parent);
        }
    }

    /**
     * Opens {@code directory} read-only and forces it. File systems that cannot open or force a
     * directory are tolerated: the file's own force has happened, its entry's durability then
     * rests on the file system.
     */
    public static void force(Path directory) {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException | UnsupportedOperationException refused) {
            // e.g. Windows cannot open a directory, some file systems reject fsync on one (EINVAL)
        }
    }
}
