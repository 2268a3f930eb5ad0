package io.sluice.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;

/**
 * An {@link OutputStream}, flushed at the end. A stream has no gathering write, so a batch of small
 * items is copied into a pooled heap staging buffer and written with one {@code write} per
 * {@link StagingBuffers#STAGING_BYTES}; an item of {@link #DIRECT_WRITE_BYTES} or more is written
 * from its own array instead (no copy). Drain-confined.
 */
public final class StreamSink implements WriteSink {

    /** Items at least this large are written on their own: copying them would save no call. */
    static final int DIRECT_WRITE_BYTES = 64 * 1024;

    private final OutputStream stream;

    public StreamSink(OutputStream stream) {
        this.stream = stream;
    }

    @Override
    public void open() {
    }

    @Override
    public boolean writeFully(ByteBuffer[] items, int offset, int count) throws IOException {
        ByteBuffer staging = null;
        try {
            for (int i = offset; i < offset + count; i++) {
                ByteBuffer item = items[i];
                if (item.hasArray() && item.remaining() >= DIRECT_WRITE_BYTES) {
                    flush(staging);
                    stream.write(item.array(), item.arrayOffset() + item.position(), item.remaining());
                    item.position(item.limit());
                    continue;
                }
                if (staging == null) {
                    staging = StagingBuffers.HEAP.take();
                }
                while (StagingBuffers.fill(staging, items, i, i + 1) == i) {   // did not fit: write, go on
                    flush(staging);
                }
            }
            flush(staging);
            return true;
        } finally {
            if (staging != null) {
                StagingBuffers.HEAP.give(staging);
            }
        }
    }

    /** Writes what is staged, then empties the buffer; nothing to do without one. */
    private void flush(ByteBuffer staging) throws IOException {
        if (staging != null && staging.position() > 0) {
            stream.write(staging.array(), staging.arrayOffset(), staging.position());
            staging.clear();
        }
    }

    @Override
    public void force() throws IOException {
        stream.flush();
    }

    @Override
    public void close() throws IOException {
        try {
            stream.flush();
        } finally {
            stream.close();
        }
    }
}
