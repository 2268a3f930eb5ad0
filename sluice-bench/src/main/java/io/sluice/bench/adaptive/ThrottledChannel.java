package io.sluice.bench.adaptive;

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
 * A sink whose speed follows a {@link RateSchedule}: each write takes the bytes (at most
 * {@link #MAX_BYTES_PER_WRITE} per call, a short write the caller loops on) and returns when the
 * schedule has carried them, parking the writing thread meanwhile (never spinning). The bytes are
 * discarded.
 *
 * <p><b>Threading:</b> one writer at a time (as {@link java.nio.channels.WritableByteChannel}
 * requires); {@link #close()} from any thread wakes a parked writer, which then throws
 * {@link java.nio.channels.AsynchronousCloseException}, so a cancelled write ends promptly.
 */
public final class ThrottledChannel extends AbstractInterruptibleChannel implements GatheringByteChannel {

    /** The most one call takes; a write of more returns short. */
    public static final int MAX_BYTES_PER_WRITE = 128 * 1024;

    private final Pacer pacer;                               // writer thread only
    private final PacingClock clock;
    private final AtomicLong writtenBytes = new AtomicLong(); // writer -> any thread
    private final AtomicLong writeCalls = new AtomicLong();   // writer -> any thread
    private final CountDownLatch closed = new CountDownLatch(1);
    private volatile Thread writer;                          // writer -> close()

    /** A channel whose schedule starts now. */
    public ThrottledChannel(RateSchedule schedule, PacingClock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.pacer = new Pacer(Objects.requireNonNull(schedule, "schedule"), clock.nanoTime());
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
        long taken = 0;
        for (int i = offset; i < offset + length && taken < MAX_BYTES_PER_WRITE; i++) {
            ByteBuffer source = sources[i];
            int n = (int) Math.min(source.remaining(), MAX_BYTES_PER_WRITE - taken);
            source.position(source.position() + n);
            taken += n;
        }
        writeCalls.incrementAndGet();
        if (taken == 0) {
            return 0;
        }
        long calledAt = clock.nanoTime();
        long deadline = pacer.reserve(calledAt, taken);
        boolean completed = false;
        writer = Thread.currentThread();
        begin();
        try {
            clock.sleepUntil(deadline, () -> !isOpen() || Thread.currentThread().isInterrupted());
            pacer.woke(Math.max(deadline, calledAt), clock.nanoTime());
            completed = isOpen();
        } finally {
            writer = null;
            end(completed);                       // AsynchronousCloseException if closed meanwhile
        }
        writtenBytes.addAndGet(taken);
        return taken;
    }

    /** Bytes whose writes have returned. */
    public long writtenBytes() {
        return writtenBytes.get();
    }

    /** Calls to {@code write} so far. */
    public long writeCalls() {
        return writeCalls.get();
    }

    /** Waits until the channel is closed; returns false on timeout. */
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
        return "ThrottledChannel[" + pacer.schedule() + "]";
    }
}
