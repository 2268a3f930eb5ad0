package io.sluice.bench.providers;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The end of every timed durable ({@code WRITE_SYNC}) write, so that every provider gives sluice's
 * {@code WriteOptions.withSync()} guarantee: the file's data and metadata forced, then its directory,
 * so that a file the write created survives a crash (fsync(2), "Notes"). Blocking: run on I/O threads.
 */
final class DurableEnd {

    private DurableEnd() {
    }

    /** Forces {@code channel}'s file with its metadata, then its directory where the file system allows. */
    static void force(FileChannel channel, Path file) throws IOException {
        channel.force(true);
        try (FileChannel directory = FileChannel.open(file.toAbsolutePath().getParent(), StandardOpenOption.READ)) {
            directory.force(true);
        } catch (IOException | UnsupportedOperationException refused) {
            // the file's own force has happened
        }
    }

    /** {@link #force} through a new channel: fsync acts on the file, not the descriptor (Linux). */
    static void forceClosed(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            force(channel, file);
        }
    }
}
