package io.sluice.internal.write;

import io.sluice.WriteMode;
import io.sluice.internal.Directories;
import io.sluice.internal.RegularFiles;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Writes to a fresh temporary file in the target's directory and, on success, moves it over the
 * target in one atomic rename; on any failure or cancellation the temporary file is deleted and
 * the target is never touched.
 *
 * <p>Invariants (tests in {@code io.sluice.reliability} name them):
 * <ul>
 *   <li>A1: the temporary file has an unpredictable name ({@link AtomicTemporaries#newName()}), is
 *       created with {@code CREATE_NEW} and {@code NOFOLLOW_LINKS} (a file or symbolic link planted
 *       at that name is never opened or followed: another name is drawn) and, where the file system
 *       is POSIX, with owner-only permissions ({@code rw-------}).</li>
 *   <li>A2: the target changes only in {@link #commit()}: the temporary file is forced, closed, the
 *       target checked again (a directory, FIFO, socket or device made there since the open is
 *       refused, and the write fails; only what appears between that check and the rename can
 *       still be replaced), given
 *       the permissions of the file it replaces (through a symbolic link: of the file the link
 *       points to, while the link itself is what the rename replaces; for a new file or a dangling
 *       link: those a plain create gives), renamed over the target with
 *       {@code ATOMIC_MOVE} ({@link WriteMode#CREATE_NEW}: hard-linked, which fails if the target
 *       appeared meanwhile), and the directory is forced.</li>
 *   <li>A3: every other way out ({@link #close()} without commit, {@link #abort()}, a failing
 *       commit) deletes the temporary file; {@code abort()} closes and deletes it before it
 *       returns ({@link ChannelSink} K1-K3: an abort racing the open waits for it briefly, and an
 *       open still blocked then deletes its file the moment it returns; an abort before it means
 *       no temporary file is ever created). Either the commit or an abort wins, never
 *       both: an abort after the commit began changes nothing.</li>
 * </ul>
 *
 * <p><b>Writer contract.</b> {@link #commit()} is the success hook; the writer calls it on its
 * success path only, after claiming the stage's point of no return (F2). A {@link #close()}
 * without a commit always discards, whatever came before it; after a commit, close only releases
 * what is left.
 */
public final class AtomicFileSink extends ChannelSink {

    private static final int NAME_ATTEMPTS = 16;
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private enum State {
        NEW,
        OPEN,
        FORCED,
        COMMITTED,
        DISCARDED
    }

    private final Path target;
    private final WriteMode mode;
    private final Supplier<String> names;
    private final AtomicReference<State> state = new AtomicReference<>(State.NEW); // drain; abort() from any thread
    private volatile Path
            temporary; // openTarget() on the drain, under the abort gate -> drain, abort() under the gate, tests

    /** A sink replacing {@code target} ({@link WriteMode#TRUNCATE}) or creating it ({@link WriteMode#CREATE_NEW}). */
    public AtomicFileSink(Path target, WriteMode mode) {
        this(target, mode, AtomicTemporaries::newName);
    }

    /** As above, drawing temporary names from {@code names} (tests plant files at known names). */
    public AtomicFileSink(Path target, WriteMode mode, Supplier<String> names) {
        if (mode == WriteMode.APPEND) {
            throw new IllegalArgumentException(
                    "atomic replace cannot append to " + target + ": use WriteMode.TRUNCATE or CREATE_NEW");
        }
        this.target = target.toAbsolutePath();
        this.mode = mode;
        this.names = names;
    }

    /** The temporary file, once opened; for tests and diagnostics. */
    public Path temporaryFile() {
        return temporary;
    }

    @Override
    protected void openTarget() throws IOException {
        Path directory = target.getParent();
        if (directory == null) {
            throw new FileSystemException(target.toString(), null, "has no parent directory to write into");
        }
        openChannel(() -> createTemporary(directory)); // K1: never after an abort
        state.compareAndSet(State.NEW, State.OPEN);
    }

    /**
     * A1: the open step, under the abort gate: checks the target (never a directory, FIFO, socket
     * or device, whose node a rename would replace), then creates the temporary file. Every call
     * here touches the file system, so all of it may block on a hung mount; the gate lets an abort
     * go on without it.
     */
    private FileChannel createTemporary(Path directory) throws IOException {
        if (mode == WriteMode.CREATE_NEW && Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            throw new FileAlreadyExistsException(target.toString());
        }
        RegularFiles.requireRegularOrAbsent(target);
        if (!Files.isDirectory(directory)) {
            throw new NoSuchFileException(target.toString(), null, "parent directory does not exist");
        }
        boolean posix = directory.getFileSystem().supportedFileAttributeViews().contains("posix");
        FileAttribute<?>[] attributes = posix
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_ONLY)}
                : new FileAttribute<?>[0];
        Set<OpenOption> options =
                Set.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW, LinkOption.NOFOLLOW_LINKS);
        FileAlreadyExistsException collision = null;
        for (int attempt = 0; attempt < NAME_ATTEMPTS; attempt++) {
            Path candidate = directory.resolve(names.get());
            try {
                FileChannel channel = FileChannel.open(candidate, options, attributes);
                temporary = candidate;
                return channel;
            } catch (FileAlreadyExistsException e) {
                collision = e; // A1: something is planted there; never open it
            }
        }
        FileSystemException failure = new FileSystemException(
                target.toString(),
                null,
                "no unused temporary name after " + NAME_ATTEMPTS + " attempts in " + directory);
        failure.initCause(collision);
        throw failure;
    }

    @Override
    public void force() throws IOException {
        super.force(); // a cancellation once aborted
        state.compareAndSet(State.OPEN, State.FORCED);
    }

    /**
     * A2: makes the written content the target's, atomically; on failure the temporary file is
     * deleted, the target keeps its old content and the error is thrown.
     */
    @Override
    public void commit() throws IOException {
        State current = state.get();
        if (current == State.COMMITTED) {
            return;
        }
        if ((current != State.OPEN && current != State.FORCED) || !state.compareAndSet(current, State.COMMITTED)) {
            state.set(State.DISCARDED);
            discard();
            throw new IOException("atomic write to " + target + " was abandoned before its commit");
        }
        try {
            if (current == State.OPEN) {
                ((FileChannel) channel()).force(true);
            }
            closeChannel();
            RegularFiles.requireRegularOrAbsent(target); // a node made there meanwhile is never replaced
            copyPermissionsOfReplacedFile();
            if (mode == WriteMode.CREATE_NEW) {
                Files.createLink(target, temporary); // fails if the target appeared meanwhile
            } else {
                Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
            }
        } catch (IOException | RuntimeException e) {
            state.set(State.DISCARDED);
            deleteTemporary(e);
            throw e;
        }
        if (mode == WriteMode.CREATE_NEW) {
            deleteTemporary(null); // the target is in place; a left link is only litter
        }
        Directories.force(target.getParent());
    }

    /** A3: without a preceding commit, discards; after one, releases what is left. Idempotent. */
    @Override
    public void close() throws IOException {
        if (state.getAndUpdate(current -> current == State.COMMITTED ? current : State.DISCARDED) == State.COMMITTED) {
            super.close(); // the channel is already closed
        } else {
            discard();
        }
    }

    /** A3, K1-K3: under the abort gate, once; closes and deletes the temporary unless the commit won. */
    @Override
    protected void abortUnderGate() {
        if (state.getAndUpdate(current -> current == State.COMMITTED ? current : State.DISCARDED) == State.COMMITTED) {
            return; // the commit won: the target is its business
        }
        super.abortUnderGate(); // closes the channel: no write or force reaches it
        deleteTemporary(null);
    }

    private void discard() throws IOException {
        IOException failure = null;
        try {
            super.close();
        } catch (IOException e) {
            failure = e;
        }
        try {
            deleteTemporary(failure);
        } finally {
            if (failure != null) {
                throw failure;
            }
        }
    }

    private void deleteTemporary(Throwable primary) {
        if (temporary == null) {
            return;
        }
        try {
            Files.deleteIfExists(temporary);
        } catch (IOException e) {
            if (primary != null) {
                primary.addSuppressed(e);
            }
        }
    }

    /**
     * Gives the temporary file, just before it becomes the target, the permissions the target
     * would have had without atomic replace: those of the file it replaces (a plain write through
     * a symbolic link writes the file it points to, so that file's), or for a new file those
     * a plain create gets (0666 less the process's umask), so atomic and plain writes agree.
     */
    private void copyPermissionsOfReplacedFile() throws IOException {
        if (!temporary.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            return;
        }
        if (mode == WriteMode.CREATE_NEW) {
            Files.setPosixFilePermissions(temporary, NewFilePermissions.of(temporary.getParent()));
            return;
        }
        PosixFileAttributes replaced;
        try {
            replaced = Files.readAttributes(target, PosixFileAttributes.class); // through a link: its file's
        } catch (NoSuchFileException none) { // new, or a dangling link
            Files.setPosixFilePermissions(temporary, NewFilePermissions.of(temporary.getParent()));
            return;
        }
        if (replaced.isRegularFile()) {
            Files.setPosixFilePermissions(temporary, replaced.permissions());
        }
    }

    @Override
    public String toString() {
        return target + " (atomic)";
    }
}
