package io.sluice.internal.write;

import io.sluice.internal.AbortGate;
import io.sluice.internal.Readiness;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.InterruptibleChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.WritableByteChannel;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Any writable channel: gathering writes where the channel is a {@link GatheringByteChannel}; a
 * non-blocking selectable channel is waited on with {@link Readiness}, never spun on.
 *
 * <p>Abort ({@link WriteSink#abort()}), from any thread, against the drain's open and writes:
 * <ul>
 *   <li>K1: an abort and a subclass's {@link #openChannel open} are ordered by an
 *       {@link AbortGate}: an abort that comes first means no file is ever opened (not even
 *       truncated); an abort that comes during the open waits for it briefly
 *       ({@link AbortGate#OPEN_WAIT_NANOS}) and closes what it opened, or leaves the close to the
 *       drain, which runs it the moment an open that blocks returns (G2): either way nothing is
 *       written through what the open returns, and the abort does not block on it.</li>
 *   <li>K2: the drain claims every {@code write} call ({@code IDLE -> WRITING}) and gives it back
 *       after it returns ({@code WRITING -> IDLE}); an abort sets {@code ABORTED}, so no write call
 *       begins once {@code abort()} has returned, and a call in flight then ends the write.</li>
 *   <li>K3: an abort closes the channel before it returns if the channel is an
 *       {@link InterruptibleChannel} (every JDK channel: closing one under a blocked call is part
 *       of its contract) or if no write call is in flight. A user's own non-interruptible channel
 *       with a call in flight is not closed under it: at most that one call, begun before the
 *       abort, may still complete, and the drain closes the channel when it returns (so possibly
 *       after the stage's dependents ran).</li>
 *   <li>K4: the channel is closed exactly once, by whichever of the drain's {@link #close()} and
 *       an abort comes first; the other waits for that close to end, then does nothing.</li>
 * </ul>
 *
 * <p>Staging, on the drain: heap items are copied into one pooled direct buffer
 * ({@link StagingBuffers}) so that a run of small items costs one system call per
 * {@link StagingBuffers#STAGING_BYTES}.
 * <ul>
 *   <li>ST1 (order): what is staged is written before any item that came after it is written
 *       otherwise (a direct item, a lone heap item gathered as it is).</li>
 *   <li>ST2 (whole buffers, files): on a {@code FileChannel} that can seek (a file, not a pipe or
 *       terminal opened as one), within a pass the staging buffer is
 *       written only when it is full, so a run of small items reaches the file in writes of
 *       exactly {@code STAGING_BYTES}, one after the other. A file written from its start by an
 *       upstream that keeps up (its items arrive inside the writer's {@code request(n)}, or before
 *       the queue runs dry) thus gets its writes at multiples of {@code STAGING_BYTES} until the
 *       pass ends: the page cache takes whole large folios, where a write that starts inside one
 *       costs measurably more per byte. A pass that ends writes what is left (ST3), after which the
 *       writes start where it stopped.</li>
 *   <li>ST3 (held within a pass only): bytes staged but not yet written stay in the buffer across
 *       {@link #writeFully} calls (on a file) until {@link #flush()}, which the writer calls before
 *       each pass ends (to wait for items, to yield, or to succeed) and after each batch of a
 *       write that has taken a lent chunk (W10), so at most one staging buffer per running pass is
 *       out of the pool, as before a batch could hold one; {@link #close()} drops what is still
 *       staged, which only a write that failed or was cancelled leaves. A pass also holds them
 *       across its upstream's {@code request(n)}: an upstream that blocks inside that call (which
 *       §3.4 asks to return promptly) keeps up to {@code STAGING_BYTES} out of the file, counted
 *       against the byte cap (W4), until it returns.</li>
 *   <li>ST4 (each batch, other channels): any other channel (a pipe or terminal opened as a
 *       {@code FileChannel} included) has no folios to fill and gets what
 *       a batch staged at the end of that batch, so an item counted as written is in the channel
 *       when the demand strategy is next asked: {@code Demand.adaptive()} judges the channel's
 *       pace by what queued while the batch was written, and a write held back for a later batch
 *       would hide a slow socket from it.</li>
 * </ul>
 *
 * <p>A {@code FileChannel} (this sink's own, or one a user passed) gets the file guarantee of
 * {@link WriteSink#abort()}: its close signals the threads inside a system call on it, waits for
 * them to return, and no call starts after it (JDK {@code FileChannelImpl.implCloseChannel},
 * {@code NativeThreadSet.signalAndWait}). A {@code write} on a regular file and an {@code fsync}
 * are not cut short by that signal, so an abort, and with it {@code cancel()}, can block for as
 * long as a {@code force} in flight: the price of the channel being closed before any dependent
 * of the stage runs. Nothing is lost by waiting: the bytes a force makes durable were written
 * before the abort.
 */
public class ChannelSink implements WriteSink {

    private static final int IDLE = 0;
    private static final int WRITING = 1;
    private static final int ABORTED = 2;

    private final AbortGate gate = new AbortGate();
    private volatile WritableByteChannel
            channel; // constructor, or openChannel() on the drain under the gate -> drain, abort() (any thread)
    private final AtomicInteger writeCall =
            new AtomicInteger(IDLE); // drain: IDLE <-> WRITING (K2); abort() from any thread: ABORTED
    private final ReentrantLock closeLock = new ReentrantLock(); // held while closing the channel (K4)
    private boolean channelClosed; // under closeLock: close() on the drain, abort() on any thread
    private Readiness readiness; // drain-confined
    private Stop stop = Stop.NEVER; // drain-confined: set by open(Stop)
    private ByteBuffer
            staging; // drain-confined: heap items' bytes copied and not yet written, null if none held (ST1-ST3)
    private Boolean holdsStaged; // drain-confined: decided at the end of the first writeFully (ST2, ST4); null before

    /** A sink over an already open channel. */
    public ChannelSink(WritableByteChannel channel) {
        this.channel = channel;
    }

    /** For subclasses that open their channel in {@link #openTarget()}, through {@link #openChannel}. */
    protected ChannelSink() {}

    /**
     * Opens the channel, from a subclass's {@link #openTarget()} on the drain: {@code opener} runs under
     * the abort gate (K1), so it never runs after an abort, and the channel it returns is closed by
     * an abort that comes while it runs (by the abort, or here when it returns late).
     *
     * @throws IOException the opener's, or a cancellation when the sink was aborted first
     */
    protected final <C extends WritableByteChannel> C openChannel(AbortGate.OpenStep<C> opener) throws IOException {
        return gate.open(
                () -> {
                    C opened = opener.open();
                    channel = opened;
                    return opened;
                },
                new WriteTo(this));
    }

    /** "write to" the sink, as an abort's exception names it: formatted only if one is thrown. */
    private static final class WriteTo {
        private final ChannelSink sink;

        WriteTo(ChannelSink sink) {
            this.sink = sink;
        }

        @Override
        public String toString() {
            return "write to " + sink;
        }
    }

    protected final WritableByteChannel channel() {
        return channel;
    }

    @Override
    public final void open(Stop stop) throws IOException {
        this.stop = stop;
        openTarget();
    }

    /** Opens the target, for subclasses that open their own channel (through {@link #openChannel}). */
    protected void openTarget() throws IOException {}

    /**
     * Copies heap items that come two or more in a row into a staging buffer ({@link #writeStaged}),
     * written whenever it is full and otherwise held until {@link #flush()} on a file (ST2), or
     * written at the end of the call on any other channel (ST4), and writes everything
     * else (direct buffers, such as lent chunks, and lone heap items) with gathering writes, after
     * what is staged, in order. While a staging buffer is held, a lone heap item is staged too.
     */
    @Override
    public boolean writeFully(ByteBuffer[] items, int offset, int count) throws IOException {
        int end = offset + count;
        int first = offset;
        while (first < end) {
            int run = StagingBuffers.heapRun(items, first, end);
            if (run >= 2 || (run == 1 && staging != null)) {
                if (!writeStaged(items, first, run)) {
                    return false;
                }
                first += run;
                continue;
            }
            if (!flush()) { // ST1: what is staged goes before the items after it
                return false;
            }
            int next = first + Math.max(run, 1);
            while (next < end && StagingBuffers.heapRun(items, next, Math.min(next + 2, end)) < 2) {
                next++; // direct, or a lone heap item: gathered as it is
            }
            if (!writeGathering(items, first, next - first)) {
                return false;
            }
            first = next;
        }
        return holdsStagedAcrossBatches() || flush(); // ST4
    }

    /** ST2: only a file's page cache gains from writes held back until the buffer is full. */
    private boolean holdsStagedAcrossBatches() {
        if (holdsStaged == null) {
            holdsStaged = isSeekableFile(channel);
        }
        return holdsStaged;
    }

    /**
     * A {@code FileChannel} whose position can be read: a file. One over a pipe or a terminal (a
     * FIFO opened as a file, standard output) cannot seek, and is a stream to its reader (ST4).
     */
    private static boolean isSeekableFile(WritableByteChannel channel) {
        if (!(channel instanceof FileChannel)) {
            return false;
        }
        try {
            ((FileChannel) channel).position();
            return true;
        } catch (IOException | RuntimeException e) { // "Illegal seek", or closed: treated as a stream
            return false;
        }
    }

    /**
     * Heap items: copied into the staging buffer, taken from the pool if none is held, and written
     * each time it fills (ST2); what is left in it waits for the next items or {@link #flush()}.
     */
    private boolean writeStaged(ByteBuffer[] items, int offset, int count) throws IOException {
        if (staging == null) {
            staging = StagingBuffers.DIRECT.take();
        }
        int next = offset;
        int end = offset + count;
        while (next < end) {
            next = StagingBuffers.fill(staging, items, next, end);
            if (!staging.hasRemaining() && !writeStaging()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Writes what is staged, if anything, and gives the staging buffer back to the pool (ST3).
     *
     * @return false if the write stopped because the operation was cancelled
     */
    @Override
    public boolean flush() throws IOException {
        if (staging == null) {
            return true;
        }
        if (staging.position() > 0 && !writeStaging()) {
            return false;
        }
        StagingBuffers.DIRECT.give(staging);
        staging = null;
        return true;
    }

    @Override
    public long stagedBytes() {
        return staging == null ? 0 : staging.position();
    }

    /** Writes the staging buffer's content whole, leaving it cleared; false once aborted (K2). */
    private boolean writeStaging() throws IOException {
        WritableByteChannel channel = this.channel;
        staging.flip();
        while (staging.hasRemaining()) {
            if (!claimWriteCall()) {
                return false; // K2: aborted
            }
            int n;
            boolean released;
            try {
                n = channel.write(staging);
            } finally {
                released = releaseWriteCall();
            }
            if (!released) {
                return false; // K2: aborted during the call
            }
            if (n > 0) {
                if (readiness != null) {
                    readiness.progressed(); // the next stall backs off from 1 µs again
                }
            } else if (!awaitWritable()) {
                return false;
            }
        }
        staging.clear();
        return true;
    }

    private boolean awaitWritable() throws IOException {
        if (readiness == null) {
            readiness = new Readiness(channel, SelectionKey.OP_WRITE, () -> gate.aborted() || stop.requested());
        }
        return readiness.await();
    }

    /** K2: claims the next write call on the drain; false once aborted. */
    private boolean claimWriteCall() {
        return writeCall.compareAndSet(IDLE, WRITING);
    }

    /** K2: gives the call back; false if an abort came while it ran. */
    private boolean releaseWriteCall() {
        return writeCall.compareAndSet(WRITING, IDLE);
    }

    private boolean writeGathering(ByteBuffer[] items, int offset, int count) throws IOException {
        WritableByteChannel channel = this.channel;
        int first = offset;
        int end = offset + count;
        while (first < end) {
            if (!claimWriteCall()) {
                return false; // K2: aborted
            }
            long n;
            boolean released;
            try {
                if (channel instanceof GatheringByteChannel) {
                    n = ((GatheringByteChannel) channel).write(items, first, end - first);
                } else {
                    n = channel.write(items[first]);
                }
            } finally {
                released = releaseWriteCall();
            }
            if (!released) {
                return false; // K2: aborted during the call
            }
            while (first < end && !items[first].hasRemaining()) {
                first++;
            }
            if (n == 0 && first < end) {
                if (!awaitWritable()) {
                    return false;
                }
            } else if (readiness != null) {
                readiness.progressed();
            }
        }
        return true;
    }

    /**
     * Forces a {@link FileChannel} (data and metadata); other channels have nothing to force.
     *
     * @throws IOException a cancellation once aborted, or the channel's
     */
    @Override
    public void force() throws IOException {
        if (gate.aborted()) {
            throw AbortGate.cancelled("write to " + this);
        }
        WritableByteChannel current = channel;
        if (current instanceof FileChannel) {
            ((FileChannel) current).force(true);
        }
    }

    /**
     * Closes the channel (idempotent, as {@link java.nio.channels.Channel#close()} is); what is
     * still staged is dropped, unwritten (ST3): a write that ends well has flushed it.
     */
    @Override
    public void close() throws IOException {
        if (staging != null) {
            StagingBuffers.DIRECT.give(staging);
            staging = null;
        }
        try {
            if (readiness != null) {
                readiness.close();
            }
        } finally {
            closeChannel();
        }
    }

    /**
     * K4: closes the channel unless it was closed already; a caller that comes second waits for
     * the first close to end, as {@link java.nio.channels.Channel#close()} specifies.
     */
    protected final void closeChannel() throws IOException {
        closeLock.lock();
        try {
            WritableByteChannel current = channel;
            if (channelClosed || current == null) {
                return;
            }
            channelClosed = true;
            current.close();
        } finally {
            closeLock.unlock();
        }
    }

    /** K1-K3; a second call does nothing. */
    @Override
    public final void abort() {
        gate.abort(this::abortUnderGate);
    }

    /**
     * Runs once, under the abort gate (no open step runs meanwhile): ends write calls (K2) and
     * closes the channel where K3 allows. A subclass that overrides it calls it.
     */
    protected void abortUnderGate() {
        int call = writeCall.getAndSet(ABORTED);
        if (call != WRITING || channel instanceof InterruptibleChannel) {
            try {
                closeChannel(); // K3: a blocked JDK call ends (AsynchronousCloseException)
            } catch (IOException ignored) {
                // the write is cancelled anyway; the drain's close() reports nothing further
            }
        }
    }
}
