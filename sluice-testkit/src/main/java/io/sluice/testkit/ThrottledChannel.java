package io.sluice.testkit;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.channels.spi.AbstractInterruptibleChannel;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A sink whose speed follows a {@link Schedule}: each write takes the bytes (at most
 * {@link #MAX_BYTES_PER_WRITE} per call, or the {@link ThrottledSink}'s limit; a short write the
 * caller loops on) and returns when the schedule has carried them, parking the writing thread
 * meanwhile (never spinning).
 *
 * <p>Three forms: {@linkplain #ThrottledChannel(Schedule, PacingClock) discarding} (the
 * scenario benchmark's sink: only the pace matters), one of many discarding channels on a shared
 * budget ({@link ThrottledSink#channel()}: concurrent writers into one disk), and a {@linkplain
 * #ThrottledChannel(Schedule, PacingClock, WritableByteChannel) decorator} that forwards the
 * bytes to a delegate, making any channel (a file, a socket) as slow as the schedule says. A call
 * hands its bytes to the delegate first and then waits until the schedule has carried what the
 * delegate took, so the delegate receives at most one call ({@link #MAX_BYTES_PER_WRITE}) ahead
 * of the schedule; a slower delegate sets the pace itself (its time counts against the wait). A
 * short write of the delegate is a short write of this channel, and only its bytes are paced.
 *
 * <p><b>Threading:</b> one writer at a time per channel (as {@link WritableByteChannel} requires);
 * {@link #close()} from any thread wakes a parked writer, which then throws
 * {@link java.nio.channels.AsynchronousCloseException}, so a cancelled write ends promptly.
 *
 * <p><b>Resources:</b> closing this channel closes the delegate (as closing a
 * {@code FilterOutputStream} closes its stream), so whoever owns the throttled channel owns both.
 */
public final class ThrottledChannel extends AbstractInterruptibleChannel implements GatheringByteChannel {

    /** The most one call takes, unless a {@link ThrottledSink} says otherwise; a write of more returns short. */
    public static final int MAX_BYTES_PER_WRITE = 128 * 1024;

    private final ThrottledSink sink;                        // immutable: its budget is shared, locked
    private final PacingClock clock;                         // immutable: any thread
    private final WritableByteChannel delegate;              // writer thread; close(): null discards
    private final AtomicLong writtenBytes = new AtomicLong(); // writer -> any thread
    private final CountDownLatch closed = new CountDownLatch(1); // close() -> any thread
    private volatile Thread writer;                          // writer -> close()

    /**
     * A channel that discards the bytes, on a budget of its own whose schedule starts now.
     *
     * @param schedule the channel's rate
     * @param clock the time the writer waits in
     */
    public ThrottledChannel(Schedule schedule, PacingClock clock) {
        this(new ThrottledSink(schedule, clock, MAX_BYTES_PER_WRITE), null);
    }

    /**
     * A decorator forwarding the bytes to {@code delegate} at the pace of {@code schedule}, which
     * starts now; the delegate is closed with this channel.
     *
     * @param schedule the channel's rate
     * @param clock the time the writer waits in
     * @param delegate where the bytes go
     */
    public ThrottledChannel(Schedule schedule, PacingClock clock, WritableByteChannel delegate) {
        this(new ThrottledSink(schedule, clock, MAX_BYTES_PER_WRITE), Objects.requireNonNull(delegate, "delegate"));
    }

    ThrottledChannel(ThrottledSink sink, WritableByteChannel delegate) {
        this.sink = sink;
        this.clock = sink.clock();
        this.delegate = delegate;
    }

    @Override
    public int write(ByteBuffer source) throws IOException {
        return (int) write(new ByteBuffer[] {source}, 0, 1);
    }

    @Override
    public long write(ByteBuffer[] sources) throws IOException {
        return write(sources, 0, sources.length);
    }

    @Override
    public long write(ByteBuffer[] sources, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, sources.length);
        if (!isOpen()) {
            throw new ClosedChannelException();
        }
        long calledAt = clock.nanoTime();
        long taken = 0;
        boolean completed = false;
        writer = Thread.currentThread();
        begin();
        try {
            taken = take(sources, offset, length);
            if (taken > 0) {
                long deadline = sink.reserve(calledAt, taken);
                clock.sleepUntil(deadline, () -> !isOpen() || Thread.currentThread().isInterrupted());
                sink.woke(Math.max(deadline, calledAt), clock.nanoTime());
            }
            completed = isOpen();
        } finally {
            writer = null;
            end(completed);                       // AsynchronousCloseException if closed meanwhile
        }
        writtenBytes.addAndGet(taken);
        return taken;
    }

    /**
     * Takes at most the sink's {@link ThrottledSink#maxBytesPerWrite()} from {@code sources}: hands them to the delegate
     * (or drops them) and advances each source by what was taken.
     */
    private long take(ByteBuffer[] sources, int offset, int length) throws IOException {
        ByteBuffer[] slices = new ByteBuffer[length];
        int sliceCount = 0;
        long budget = sink.maxBytesPerWrite();
        for (int i = offset; i < offset + length && budget > 0; i++) {
            ByteBuffer source = sources[i];
            int n = (int) Math.min(source.remaining(), budget);
            slices[sliceCount++] = source.slice(source.position(), n);
            budget -= n;
        }
        long taken = forward(slices, sliceCount);
        for (int i = 0; i < sliceCount; i++) {
            ByteBuffer source = sources[offset + i];
            source.position(source.position() + slices[i].position());
        }
        return taken;
    }

    private long forward(ByteBuffer[] slices, int sliceCount) throws IOException {
        if (delegate == null) {
            long dropped = 0;
            for (int i = 0; i < sliceCount; i++) {
                dropped += slices[i].remaining();
                slices[i].position(slices[i].limit());
            }
            return dropped;
        }
        if (delegate instanceof GatheringByteChannel gathering) {
            return gathering.write(slices, 0, sliceCount);
        }
        long forwarded = 0;
        for (int i = 0; i < sliceCount; i++) {
            forwarded += delegate.write(slices[i]);
            if (slices[i].hasRemaining()) {
                break;                            // a short write: the caller comes back for the rest
            }
        }
        return forwarded;
    }

    /** Bytes whose writes have returned. */
    public long writtenBytes() {
        return writtenBytes.get();
    }

    /**
     * Waits until the channel is closed.
     *
     * @param timeout how long to wait
     * @param unit the unit of {@code timeout}
     * @return false on timeout
     * @throws InterruptedException if interrupted while waiting
     */
    public boolean awaitClosed(long timeout, TimeUnit unit) throws InterruptedException {
        return closed.await(timeout, unit);
    }

    @Override
    protected void implCloseChannel() throws IOException {
        Thread parked = writer;
        if (parked != null) {
            LockSupport.unpark(parked);
        }
        try {
            if (delegate != null) {
                delegate.close();                 // also fails a writer blocked in the delegate
            }
        } finally {
            closed.countDown();
        }
    }

    @Override
    public String toString() {
        return "ThrottledChannel[" + sink.schedule() + (delegate == null ? "" : " -> " + delegate) + "]";
    }
}
