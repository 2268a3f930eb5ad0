package io.sluice.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;

/** An {@link OutputStream}: one {@code write} per item (heap arrays directly), flushed at the end. */
public final class StreamSink implements WriteSink {

    private final OutputStream stream;
    private byte[] scratch;                  // drain-confined; for direct buffers

    public StreamSink(OutputStream stream) {
        this.stream = stream;
    }

    @Override
    public void open() {
    }

    @Override
    public boolean writeFully(ByteBuffer[] items, int offset, int count) throws IOException {
        for (int i = offset; i < offset + count; i++) {
            ByteBuffer item = items[i];
            if (item.hasArray()) {
                stream.write(item.array(), item.arrayOffset() + item.position(), item.remaining());
                item.position(item.limit());
            } else {
                if (scratch == null) {
                    scratch = new byte[8 * 1024];
                }
                while (item.hasRemaining()) {
                    int n = Math.min(item.remaining(), scratch.length);
                    item.get(scratch, 0, n);
                    stream.write(scratch, 0, n);
                }
            }
        }
        return true;
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
