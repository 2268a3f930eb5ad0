package io.sluice.lab;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.spi.AbstractInterruptibleChannel;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A sink that discards its bytes at the speed of a {@link Schedule}: each write takes at most
 * {@link #MAX_BYTES_PER_WRITE} (or its {@link ThrottledSink}'s limit) and returns when the schedule
 * has carried them, parking meanwhile. One writer at a time; {@link #close()} from any thread wakes
 * a parked writer, which then throws {@link java.nio.channels.AsynchronousCloseException}.
 */
public final class ThrottledChannel extends AbstractInterruptibleChannel implements GatheringByteChannel {

    /** The most one call takes, unless a {@link ThrottledSink} says otherwise. */
    public static final int MAX_BYTES_PER_WRITE = 128 * 1024;

    private final ThrottledSink sink; // immutable: its budget is shared, locked
    private final AtomicLong writtenBytes = new AtomicLong(); // writer -> any thread
    private final CountDownLatch closed = new CountDownLatch(1); // close() -> any thread
    private volatile Thread writer; // writer -> close()

    /** A channel on a budget of its own whose schedule starts now. */
    public ThrottledChannel(Schedule schedule, PacingClock clock) {
        this(new ThrottledSink(schedule, clock, MAX_BYTES_PER_WRITE));
    }

    ThrottledChannel(ThrottledSink sink) {
        this.sink = sink;
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
        long calledAt = sink.clock.nanoTime();
        long taken = 0;
        boolean completed = false;
        writer = Thread.currentThread();
        begin();
        try {
            taken = take(sources, offset, length);
            if (taken > 0) {
                long deadline = sink.reserve(calledAt, taken);
                sink.clock.sleepUntil(
                        deadline, () -> !isOpen() || Thread.currentThread().isInterrupted());
                sink.woke(Math.max(deadline, calledAt), sink.clock.nanoTime());
            }
            completed = isOpen();
        } finally {
            writer = null;
            end(completed); // AsynchronousCloseException if closed meanwhile
        }
        writtenBytes.addAndGet(taken);
        return taken;
    }

    /** Drops at most the sink's per-write limit from {@code sources}, advancing each; returns how many. */
    private long take(ByteBuffer[] sources, int offset, int length) {
        long budget = sink.maxBytesPerWrite;
        long taken = 0;
        for (int i = offset; i < offset + length && taken < budget; i++) {
            int n = (int) Math.min(sources[i].remaining(), budget - taken);
            sources[i].position(sources[i].position() + n);
            taken += n;
        }
        return taken;
    }

    /** Bytes whose writes have returned. */
    public long writtenBytes() {
        return writtenBytes.get();
    }

    /** Waits until the channel is closed; false on timeout. */
    public boolean awaitClosed(long timeout, TimeUnit unit) throws InterruptedException {
        return closed.await(timeout, unit);
    }

    @Override
    protected void implCloseChannel() {
        Thread parked = writer;
        if (parked != null) {
            LockSupport.unpark(parked);
        }
        closed.countDown();
    }

    @Override
    public String toString() {
        return "ThrottledChannel[" + sink.schedule + "]";
    }
}
