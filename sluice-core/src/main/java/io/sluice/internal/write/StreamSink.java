package io.sluice.internal.write;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An {@link OutputStream}, flushed at the end. A stream has no gathering write, so a batch of small
 * items is copied into a pooled heap staging buffer and written with one {@code write} per
 * {@link StagingBuffers#STAGING_BYTES}; an item of {@link #DIRECT_WRITE_BYTES} or more is written
 * from its own array instead (no copy). Drain-confined, except {@link #abort()}.
 *
 * <p>What {@link #abort()} guarantees for the user's stream (the writer calls it from the thread
 * that completes the stage from outside, before the stage's dependents run):
 * <ul>
 *   <li>S1: once {@code abort()} has returned, no call into the stream ({@code write},
 *       {@code flush}) starts through this sink: each starts only by moving {@link #state} from
 *       IDLE to CALLING, which fails once {@code abort()} has set ABORTED.</li>
 *   <li>S2: the sink never flushes an aborted stream; the stream's own {@code close()} may flush
 *       what the stream buffered itself (a {@code BufferedOutputStream} does), so a close can block
 *       like a write.</li>
 *   <li>S3: {@code abort()} closes the stream on a new daemon thread {@code sluice-stream-close},
 *       because a stream's {@code close()} may block (S2) or wait for a lock a blocked call holds,
 *       and waits at most {@link #ABORT_WAIT_MILLIS} ms for a call in flight to end and the close
 *       to return (whichever thread started it: the drain's own {@link #close()} may have won the
 *       race to close), counted from the moment the helper runs: a busy machine that is slow to
 *       schedule a new thread does not shorten the wait. With no call in flight and a close that
 *       does not block, the stream is closed when {@code abort()} returns. Where closing
 *       unblocks a write (a socket's stream, a {@code PipedOutputStream}), the write fails at once,
 *       the stream is closed when {@code abort()} returns, and no further byte reaches it. Where
 *       it cannot (a {@code BufferedOutputStream}, whose {@code close()} flushes under the lock its
 *       blocked write holds; a {@code FileOutputStream} on a FIFO), {@code abort()} returns after
 *       that wait with the call still blocked and the close pending on the helper thread: if the
 *       stream's peer takes the bytes later, that one call's bytes reach it, then the stream is
 *       closed and the helper ends. Either way no later call starts (S1).</li>
 *   <li>S4: {@link #close()} is idempotent and closes the stream once; after {@code abort()} it
 *       neither flushes nor closes again.</li>
 * </ul>
 */
public final class StreamSink implements WriteSink {

    /** Items at least this large are written on their own: copying them would save no call. */
    static final int DIRECT_WRITE_BYTES = 64 * 1024;

    /** S3: how long {@link #abort()} waits for a call in flight to end and the close to return. */
    static final long ABORT_WAIT_MILLIS = 100;
    /** S3: how long {@link #abort()} waits for the helper thread to start running, a bound never reached in practice. */
    static final long CLOSER_START_WAIT_MILLIS = 10_000;

    private static final int CALLING = 1; // a call into the stream is in flight (drain)
    private static final int ABORTED = 2; // abort() was called (any thread, once)

    private final OutputStream stream;
    private final AtomicInteger state = new AtomicInteger(); // drain sets/clears CALLING; any thread sets ABORTED (S1)
    private final AtomicBoolean closed = new AtomicBoolean(); // drain or closer: the stream is closed once (S4)
    private final CountDownLatch callEnded =
            new CountDownLatch(1); // drain, or aborting thread if none in flight -> aborting thread (S3)
    private final CountDownLatch closeReturned =
            new CountDownLatch(1); // whichever thread closed the stream -> aborting thread (S3)
    private final CountDownLatch closerRunning =
            new CountDownLatch(1); // closer or aborting thread -> aborting thread (S3)
    private final ThreadFactory closers; // immutable: makes the helper of S3

    public StreamSink(OutputStream stream) {
        this(stream, task -> {
            Thread closer = new Thread(task, "sluice-stream-close");
            closer.setDaemon(true);
            return closer;
        });
    }

    /** A sink whose {@link #abort()} closes the stream on a thread from {@code closers} (S3). */
    StreamSink(OutputStream stream, ThreadFactory closers) {
        this.stream = stream;
        this.closers = closers;
    }

    @Override
    public void open(Stop stop) {}

    @Override
    public boolean writeFully(ByteBuffer[] items, int offset, int count) throws IOException {
        ByteBuffer staging = null;
        try {
            for (int i = offset; i < offset + count; i++) {
                ByteBuffer item = items[i];
                if (item.hasArray() && item.remaining() >= DIRECT_WRITE_BYTES) {
                    if (!flush(staging)
                            || !write(item.array(), item.arrayOffset() + item.position(), item.remaining())) {
                        return false;
                    }
                    item.position(item.limit());
                    continue;
                }
                if (staging == null) {
                    staging = StagingBuffers.HEAP.take();
                }
                while (StagingBuffers.fill(staging, items, i, i + 1) == i) { // did not fit: write, go on
                    if (!flush(staging)) {
                        return false;
                    }
                }
            }
            return flush(staging);
        } finally {
            if (staging != null) {
                StagingBuffers.HEAP.give(staging);
            }
        }
    }

    /** Writes what is staged, then empties the buffer; false if aborted (S1). */
    private boolean flush(ByteBuffer staging) throws IOException {
        if (staging != null && staging.position() > 0) {
            if (!write(staging.array(), staging.arrayOffset(), staging.position())) {
                return false;
            }
            staging.clear();
        }
        return true;
    }

    /** One {@code write} call into the stream, unless aborted (S1); false if aborted. */
    private boolean write(byte[] bytes, int offset, int length) throws IOException {
        if (!begin()) {
            return false;
        }
        try {
            stream.write(bytes, offset, length);
        } finally {
            end();
        }
        return true;
    }

    /** S1: claims the start of a call into the stream; false once aborted. */
    private boolean begin() {
        return state.compareAndSet(0, CALLING);
    }

    /** Ends a call; if abort() came meanwhile, tells it the call has ended (S3). */
    private void end() {
        if (!state.compareAndSet(CALLING, 0)) {
            state.set(ABORTED); // CALLING | ABORTED: no call starts again
            callEnded.countDown();
        }
    }

    @Override
    public void force() throws IOException {
        if (!begin()) {
            return; // aborted: the write ends without a commit
        }
        try {
            stream.flush();
        } finally {
            end();
        }
    }

    @Override
    public void close() throws IOException {
        if (closed.get()) {
            return; // S4
        }
        if (!begin()) {
            closeOnce(); // aborted: no flush; abort() closed it or is closing it
            return;
        }
        try {
            try {
                stream.flush();
            } finally {
                closeOnce();
            }
        } finally {
            end();
        }
    }

    /**
     * Stops the write: no call into the stream starts once this returns (S1), and the stream is
     * closed, which unblocks a call in flight where the stream allows it (S3). Idempotent.
     */
    @Override
    public void abort() {
        int before = state.getAndUpdate(current -> current | ABORTED);
        if ((before & ABORTED) != 0) {
            return;
        }
        if ((before & CALLING) == 0) {
            callEnded.countDown(); // no call in flight: only the close is awaited
        }
        try {
            closers.newThread(() -> {
                        closerRunning.countDown();
                        closeQuietly();
                    })
                    .start();
        } catch (OutOfMemoryError | RuntimeException noThread) {
            closerRunning.countDown();
            closeReturned.countDown(); // nothing to wait for: the drain's close() closes it once the call ends
        }
        try {
            if (closerRunning.await(CLOSER_START_WAIT_MILLIS, TimeUnit.MILLISECONDS)) { // S3: from when it runs
                long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ABORT_WAIT_MILLIS);
                if (callEnded.await(ABORT_WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                    closeReturned.await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Closes the stream unless another thread has; whoever closes it tells abort() when the close returned (S3). */
    private void closeOnce() throws IOException {
        if (closed.compareAndSet(false, true)) {
            try {
                stream.close();
            } finally {
                closeReturned.countDown();
            }
        }
    }

    private void closeQuietly() {
        try {
            closeOnce();
        } catch (IOException | RuntimeException ignored) {
            // the write is cancelled: there is no one to report a failed close to
        }
    }
}
