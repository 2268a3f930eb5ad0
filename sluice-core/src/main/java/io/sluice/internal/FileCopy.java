package io.sluice.internal;

import io.sluice.WriteMode;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * File to file with {@link FileChannel#transferTo} (zero-copy where the OS offers it), one slice
 * per drain pass so that a copy is cancellable between slices and shares the executor fairly.
 *
 * <p>Invariants: C1, both files are opened on the drain and closed by it on every path before the
 * stage completes; C2, a copy completes with the number of bytes copied, the size of the source
 * when it was opened (a source that shrinks meanwhile is an error).
 */
public final class FileCopy {

    static final long SLICE_BYTES = 8L * 1024 * 1024;

    private final Path source;
    private final Path target;
    private final WriteMode mode;
    private final boolean sync;
    private final OperationFuture<Long> result = new OperationFuture<>();
    private final SerialDrain drain;
    private volatile boolean aborted;                  // any thread -> drain

    private FileChannel in;                            // drain-confined
    private FileChannel out;                           // drain-confined
    private long size;                                 // drain-confined
    private long position;                             // drain-confined
    private boolean done;                              // drain-confined

    public FileCopy(Path source, Path target, WriteMode mode, boolean sync, Executor executor) {
        this.source = source;
        this.target = target;
        this.mode = mode;
        this.sync = sync;
        this.drain = new SerialDrain(executor, this::pass, this::rejected, false);
        result.onAbort(() -> {
            aborted = true;
            drain.signal();
        });
    }

    /** Starts the copy; returns its stage. */
    public OperationFuture<Long> start() {
        drain.signal();
        return result;
    }

    private boolean pass() {
        if (done) {
            return false;
        }
        if (aborted) {
            end(new CancellationException("copy of " + source + " to " + target + " was cancelled"));
            return false;
        }
        try {
            if (in == null) {
                if (java.nio.file.Files.exists(target) && java.nio.file.Files.isSameFile(source, target)) {
                    throw new java.nio.file.FileSystemException(source.toString(), target.toString(),
                            "source and target are the same file");
                }
                in = FileReadSource.openForRead(source);
                size = in.size();
                out = FileChannel.open(target, FileSink.openOptions(mode));
            }
            if (position < size) {
                long n = in.transferTo(position, Math.min(SLICE_BYTES, size - position), out);
                if (n == 0 && in.size() <= position) {
                    throw new java.io.EOFException(source + ": file shrank while being copied: end at byte "
                            + position + ", expected " + size + " bytes");
                }
                position += n;
            }
            if (position >= size) {
                if (sync) {
                    out.force(true);
                }
                end(null);
                return false;
            }
            return true;                                          // next slice, after others had a turn
        } catch (Throwable t) {
            end(t);
            return false;
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

    private void rejected(Throwable e) {
        if (!done) {
            end(e instanceof RejectedExecutionException
                    ? new RejectedExecutionException("executor rejected the copy of " + source + ": "
                            + e.getMessage(), e)
                    : e);
        }
    }
}
