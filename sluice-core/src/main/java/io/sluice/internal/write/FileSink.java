package io.sluice.internal.write;

import io.sluice.internal.Directories;
import io.sluice.WriteMode;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A file opened on the drain in the requested mode. Forcing it forces the file ({@code force(true)})
 * and then its directory, so that a file the write created still exists after a crash. An abort
 * ({@link ChannelSink} K1-K3) closes the file before it returns, waiting at most for the open or
 * the one system call in flight on it; an abort before the open means the file is never opened,
 * created or truncated.
 */
public final class FileSink extends ChannelSink {

    private final Path path;
    private final WriteMode mode;

    public FileSink(Path path, WriteMode mode) {
        this.path = path;
        this.mode = mode;
    }

    static OpenOption[] openOptions(WriteMode mode) {
        switch (mode) {
            case APPEND:
                return new OpenOption[] {StandardOpenOption.WRITE, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND};
            case CREATE_NEW:
                return new OpenOption[] {StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW};
            case TRUNCATE:
            default:
                return new OpenOption[] {StandardOpenOption.WRITE, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING};
        }
    }

    @Override
    protected void openTarget() throws IOException {
        openChannel(() -> FileChannel.open(path, openOptions(mode)));
    }

    /**
     * Forces the file, then its directory: always, not only when this write created the file,
     * because whether the open created it cannot be known race-free, and forcing a directory
     * whose entries did not change costs little next to the file's own force.
     */
    @Override
    public void force() throws IOException {
        super.force();
        Directories.forceParentOf(path);
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
