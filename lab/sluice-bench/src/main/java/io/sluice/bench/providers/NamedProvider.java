package io.sluice.bench.providers;

import io.sluice.bench.Op;
import io.sluice.bench.Provider;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;

/**
 * What every provider here shares: its row label, the operations it has rows for, and the end of every timed
 * durable ({@code WRITE_SYNC}) write, {@link #force}, which gives sluice's {@code WriteOptions.withSync()} guarantee.
 */
abstract class NamedProvider implements Provider {

    /** A peer's {@code -64k} variant: reads and copies only. */
    static final Set<Op> READ_COPY = Set.of(Op.READ, Op.COPY);
    /** A peer without a force option: no durable row. */
    static final Set<Op> NOT_DURABLE = Set.of(Op.WRITE, Op.READ, Op.COPY);

    private final String name; // the row label
    private final Set<Op> ops; // the operations it has rows for

    NamedProvider(String name, Set<Op> ops) {
        this.name = name;
        this.ops = Set.copyOf(ops);
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final boolean supports(Op op) {
        return ops.contains(op);
    }

    /**
     * Forces {@code channel}'s file with its metadata, then its directory where the file system allows, so that a
     * file the write created survives a crash (fsync(2), "Notes"). Blocking: run on I/O threads.
     */
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
