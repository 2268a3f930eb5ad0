package io.sluice.internal.write;

import io.sluice.WriteMode;
import io.sluice.internal.AbortGate;
import io.sluice.internal.Directories;
import io.sluice.internal.OperationFuture;
import io.sluice.internal.RegularFiles;
import io.sluice.internal.SerialDrain;
import io.sluice.internal.read.FileReadSource;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * File to file with {@link FileChannel#transferTo} (zero-copy where the OS offers it), one slice
 * per drain pass so that a copy shares the executor fairly; a cancel does not wait for the slice
 * to end (C3).
 *
 * <p>Invariants:
 * <ul>
 *   <li>C1: both files are opened on the drain and closed by it on every path before the stage
 *       completes.</li>
 *   <li>C2: a copy completes with the number of bytes copied, the size of the source when it was
 *       opened (a source that shrinks meanwhile is an error).</li>
 *   <li>C3: an outside completion's abort hook closes both files before it returns, so no byte
 *       reaches the target afterwards. The drain opens them under an {@link AbortGate}: an abort
 *       that comes first means the target is never opened (nor truncated); one that comes during
 *       the open waits for it briefly, and an open still blocked then closes what it opened the
 *       moment it returns ({@link AbortGate} G2); a source opened before an open of the target that
 *       hangs is closed at once all the same, and so is one whose open returns during the abort's
 *       wait, which then never opens the target (C6). The source is closed first: a
 *       {@code transferTo} in flight is registered with the source channel (JDK 17: only with
 *       it), whose close waits for that
 *       system call to return; the target's close then waits for a fallback write in flight on
 *       it, and none starts after. The drain then fails on the closed channels and ends.</li>
 *   <li>C4: with sync, the target is forced, then its directory, so that a copy that created the
 *       file still has it after a crash.</li>
 *   <li>C5: the source is a regular file, and so is the target if it exists
 *       ({@link RegularFiles}): nothing else is opened, so no copy waits for a FIFO's peer.</li>
 *   <li>C6: the abort hook sets {@code aborting} before it reads {@code in}; the open step sets
 *       {@code in} before it reads {@code aborting} (both volatile). So at least one of them sees
 *       the other's write: the hook closes the source, or the open step refuses to open the
 *       target and throws, its source then closed by the gate's close step or by the drain's
 *       end. A source is never left open behind a target's open that outlasts the abort's wait
 *       (where {@link AbortGate} G2 would close it only when that open returns).</li>
 * </ul>
 */
public final class FileCopy extends SerialDrain {

    static final long SLICE_BYTES = 8L * 1024 * 1024;

    private final Path source;
    private final Path target;
    private final WriteMode mode;
    private final boolean sync;
    private final OperationFuture<Long> result = new OperationFuture<>();
    private final AbortGate gate = new AbortGate();

    private volatile FileChannel in; // drain, set under the gate -> abort hook (C3: closed at once)
    private volatile FileChannel out; // drain, set under the gate -> abort hook, under the gate
    private volatile boolean aborting; // abort hook, before it reads in -> the open step, after it sets in (C6)
    private long size; // drain-confined
    private long position; // drain-confined
    private boolean done; // drain-confined

    public FileCopy(Path source, Path target, WriteMode mode, boolean sync, Executor executor) {
        super(executor, false); // the copy is its own drain: one object per copy for both
        this.source = source;
        this.target = target;
        this.mode = mode;
        this.sync = sync;
        result.onAbort(() -> {
            aborting = true; // C6: before the read of in
            closeQuietly(in); // C3: opened before an open of the target that may hang
            gate.abort(this::closeBoth); // C3: closed before the stage completes
            signal();
        });
    }

    /** Starts the copy; returns its stage. */
    public OperationFuture<Long> start() {
        signal();
        return result;
    }

    /** A drain pass (called by {@link SerialDrain} only). */
    @Override
    protected boolean pass() {
        if (done) {
            return false;
        }
        if (gate.aborted()) {
            end(new CancellationException(this + " was cancelled"));
            return false;
        }
        try {
            if (in == null) {
                gate.open(this::openBoth, this); // C3: never after an abort
                size = in.size();
            }
            if (position < size) {
                long n = in.transferTo(position, Math.min(SLICE_BYTES, size - position), out);
                if (n == 0 && in.size() <= position) {
                    throw new java.io.EOFException(source + ": file shrank while being copied: end at byte " + position
                            + ", expected " + size + " bytes");
                }
                position += n;
            }
            if (position >= size) {
                if (sync) {
                    out.force(true);
                    Directories.forceParentOf(target); // C4
                }
                end(null);
                return false;
            }
            return true; // next slice, after others had a turn
        } catch (Throwable t) {
            end(t);
            return false;
        }
    }

    /**
     * The open step, under the gate: both files regular (C5), not one file; a source that fails to
     * open leaves the target untouched.
     */
    private Void openBoth() throws IOException {
        if (RegularFiles.requireRegularOrAbsent(target) && Files.isSameFile(source, target)) {
            throw new FileSystemException(source.toString(), target.toString(), "source and target are the same file");
        }
        in = FileReadSource.openForRead(source);
        if (aborting) { // C6: the abort hook may have read in before it was set
            throw AbortGate.cancelled(this);
        }
        out = FileSink.open(target, mode);
        return null;
    }

    /** C3: the abort hook's close step, under the gate: the source first. */
    private void closeBoth() {
        closeQuietly(in);
        closeQuietly(out);
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // the copy is cancelled; the drain's end() reports nothing further
            }
        }
    }

    private void end(Throwable error) {
        done = true;
        Throwable failure = error;
        for (FileChannel channel : new FileChannel[] {in, out}) {
            if (channel == null) {
                continue;
            }
            try {
                channel.close();
            } catch (IOException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure == null) {
            result.succeed(position);
        } else {
            result.fail(failure);
        }
    }

    @Override
    public String toString() {
        return "copy of " + source + " to " + target;
    }

    /** The drain's failure: its executor refused it, or a pass threw (called by {@link SerialDrain} only). */
    @Override
    protected void passFailed(Throwable error) {
        if (!done) {
            end(
                    error instanceof RejectedExecutionException
                            ? new RejectedExecutionException(
                                    "executor rejected the copy of " + source + ": " + error.getMessage(), error)
                            : error);
        }
    }
}
