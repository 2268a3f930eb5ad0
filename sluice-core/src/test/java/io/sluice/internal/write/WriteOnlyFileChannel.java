package io.sluice.internal.write;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

/**
 * A {@code FileChannel} with no file behind it, for tests that need a sink to treat its target as a
 * file (ChannelSink's ST2) while they see every write call: subclasses take the bytes of
 * {@code write(ByteBuffer)}; everything but writing and closing is unsupported.
 */
abstract class WriteOnlyFileChannel extends FileChannel {

    /** One {@code write(ByteBuffer)} per buffer; a subclass that records calls overrides it. */
    @Override
    public long write(ByteBuffer[] sources, int offset, int length) throws IOException {
        long n = 0;
        for (int i = offset; i < offset + length; i++) {
            n += write(sources[i]);
        }
        return n;
    }

    @Override
    public int read(ByteBuffer destination) {
        throw new UnsupportedOperationException("write only");
    }

    @Override
    public long read(ByteBuffer[] destinations, int offset, int length) {
        throw new UnsupportedOperationException("write only");
    }

    @Override
    public long position() throws IOException {
        return 0; // seekable, as a file just opened
    }

    @Override
    public FileChannel position(long newPosition) {
        throw new UnsupportedOperationException("no file");
    }

    @Override
    public long size() {
        throw new UnsupportedOperationException("no file");
    }

    @Override
    public FileChannel truncate(long size) {
        throw new UnsupportedOperationException("no file");
    }

    @Override
    public void force(boolean metaData) {}

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) {
        throw new UnsupportedOperationException("write only");
    }

    @Override
    public long transferFrom(ReadableByteChannel source, long position, long count) {
        throw new UnsupportedOperationException("no file");
    }

    @Override
    public int read(ByteBuffer destination, long position) {
        throw new UnsupportedOperationException("write only");
    }

    @Override
    public int write(ByteBuffer source, long position) {
        throw new UnsupportedOperationException("no file");
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) {
        throw new UnsupportedOperationException("no file");
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) {
        throw new UnsupportedOperationException("no file");
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) {
        throw new UnsupportedOperationException("no file");
    }

    @Override
    protected void implCloseChannel() {}
}
