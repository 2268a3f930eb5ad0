package io.sluice.internal.write;

import io.sluice.WriteMode;
import io.sluice.internal.AbortGate;
import io.sluice.internal.Directories;
import io.sluice.internal.RegularFiles;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.util.Set;

/**
 * A file opened on the drain in the requested mode. Forcing it forces the file ({@code force(true)})
 * and then its directory, so that a file the write created still exists after a crash. An abort
 * ({@link ChannelSink} K1-K3) closes the file before it returns, waiting at most for the one system
 * call in flight on it, and for an open in flight at most {@link AbortGate#OPEN_WAIT_NANOS} (an open
 * still blocked then is closed by the drain the moment it returns, and nothing is written through
 * it); an abort before the open means the file is never opened, created or truncated. A target
 * that exists and is not a regular file (a directory, FIFO, socket or device) is refused before
 * the open ({@link RegularFiles}).
 */
public final class FileSink extends ChannelSink {

    private static final Set<OpenOption> APPEND =
            Set.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    private static final Set<OpenOption> CREATE_NEW = Set.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW);
    private static final Set<OpenOption> TRUNCATE =
            Set.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
    private static final FileAttribute<?>[] NO_ATTRIBUTES = new FileAttribute<?>[0];

    private final Path path;
    private final AbortGate.OpenStep<? extends FileChannel> opener; // called on the drain, under the abort gate

    public FileSink(Path path, WriteMode mode) {
        this(path, () -> {
            RegularFiles.requireRegularOrAbsent(path);
            return open(path, mode);
        });
    }

    /** A sink whose file {@code opener} opens: for tests that make the open block or fail. */
    public FileSink(Path path, AbortGate.OpenStep<? extends FileChannel> opener) {
        this.path = path;
        this.opener = opener;
    }

    /** The open's options for {@code mode}, one set per mode: the varargs form copies them into a new set each time. */
    static Set<OpenOption> openOptions(WriteMode mode) {
        switch (mode) {
            case APPEND:
                return APPEND;
            case CREATE_NEW:
                return CREATE_NEW;
            case TRUNCATE:
            default:
                return TRUNCATE;
        }
    }

    /** Opens {@code path} to write in {@code mode}. */
    static FileChannel open(Path path, WriteMode mode) throws IOException {
        return FileChannel.open(path, openOptions(mode), NO_ATTRIBUTES);
    }

    @Override
    protected void openTarget() throws IOException {
        openChannel(opener);
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
