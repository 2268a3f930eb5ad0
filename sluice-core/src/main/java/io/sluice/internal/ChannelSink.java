package io.sluice.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.WritableByteChannel;
import java.nio.channels.spi.AbstractInterruptibleChannel;
import java.util.function.BooleanSupplier;

/**
 * Any writable channel: gathering writes where the channel is a {@link GatheringByteChannel}; a
 * non-blocking selectable channel is waited on with {@link Readiness}, never spun on.
 */
public class ChannelSink implements WriteSink {

    private WritableByteChannel channel;           // set by open(); then drain-confined
    private Readiness readiness;                   // drain-confined
    private BooleanSupplier cancelled = () -> false;

    /** A sink over an already open channel. */
    public ChannelSink(WritableByteChannel channel) {
        this.channel = channel;
    }

    /** For subclasses that open their channel in {@link #open()}. */
    protected ChannelSink() {
    }

    /** Where the writer's cancellation flag can be read while waiting for readiness. */
    public void cancelledBy(BooleanSupplier cancelled) {
        this.cancelled = cancelled;
    }

    /** Sets the channel, from a subclass's {@link #open()}. */
    protected final void channel(WritableByteChannel channel) {
        this.channel = channel;
    }

    protected final WritableByteChannel channel() {
        return channel;
    }

    @Override
    public void open() throws IOException {
    }

    @Override
    public boolean writeFully(ByteBuffer[] items, int offset, int count) throws IOException {
        if (StagingBuffers.worthStagingForChannel(items, offset, count)) {
            return writeStaged(items, offset, count);
        }
        return writeGathering(items, offset, count);
    }

    /** Heap items: copied into a pooled direct buffer, one write per {@link StagingBuffers#STAGING_BYTES}. */
    private boolean writeStaged(ByteBuffer[] items, int offset, int count) throws IOException {
        ByteBuffer staging = StagingBuffers.DIRECT.take();
        try {
            int next = offset;
            int end = offset + count;
            while (next < end) {
                staging.clear();
                next = StagingBuffers.fill(staging, items, next, end);
                staging.flip();
                while (staging.hasRemaining()) {
                    if (channel.write(staging) > 0) {
                        if (readiness != null) {
                            readiness.progressed();    // the next stall backs off from 1 µs again
                        }
                    } else if (!awaitWritable()) {
                        return false;
                    }
                }
            }
            return true;
        } finally {
            StagingBuffers.DIRECT.give(staging);
        }
    }

    private boolean awaitWritable() throws IOException {
        if (readiness == null) {
            readiness = new Readiness(channel, SelectionKey.OP_WRITE, cancelled);
        }
        return readiness.await();
    }

    private boolean writeGathering(ByteBuffer[] items, int offset, int count) throws IOException {
        int first = offset;
        int end = offset + count;
        while (first < end) {
            long n;
            if (channel instanceof GatheringByteChannel) {
                n = ((GatheringByteChannel) channel).write(items, first, end - first);
            } else {
                n = channel.write(items[first]);
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

    /** Forces a {@link java.nio.channels.FileChannel} (data and metadata); other channels have nothing to force. */
    @Override
    public void force() throws IOException {
        if (channel instanceof java.nio.channels.FileChannel) {
            ((java.nio.channels.FileChannel) channel).force(true);
        }
    }

    @Override
    public void close() throws IOException {
        try {
            if (readiness != null) {
                readiness.close();
            }
        } finally {
            if (channel != null) {
                channel.close();
            }
        }
    }

    @Override
    public void abort() {
        WritableByteChannel current = channel;
        if (current instanceof AbstractInterruptibleChannel) {
            try {
                current.close();              // unblocks a blocked write (AsynchronousCloseException)
            } catch (IOException ignored) {
                // the drain's close() reports nothing further; the write is cancelled anyway
            }
        }
    }
}
