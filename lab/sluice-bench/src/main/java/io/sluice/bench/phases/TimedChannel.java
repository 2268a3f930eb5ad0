package io.sluice.bench.phases;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

/**
 * A file channel that times its size, I/O and close calls into {@link Calls}. A transfer to or
 * from another timed channel hands the JDK the channel beneath, so {@code transferTo} between
 * files keeps its in-kernel copy.
 */
final class TimedChannel extends FileChannel {

    private final FileChannel channel;
    private final Calls calls;

    TimedChannel(FileChannel channel, Calls calls) {
        this.channel = channel;
        this.calls = calls;
    }

    private static WritableByteChannel beneath(WritableByteChannel target) {
        return target instanceof TimedChannel timed ? timed.channel : target;
    }

    private static ReadableByteChannel beneath(ReadableByteChannel source) {
        return source instanceof TimedChannel timed ? timed.channel : source;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        long began = System.nanoTime();
        try {
            return channel.read(dst);
        } finally {
            calls.add(Calls.Kind.IO, began);
        }
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        long began = System.nanoTime();
        try {
            return channel.read(dsts, offset, length);
        } finally {
            calls.add(Calls.Kind.IO, began);
        }
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        long began = System.nanoTime();
        try {
            return channel.write(src);
        } finally {
            calls.add(Calls.Kind.IO, began);
        }
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        long began = System.nanoTime();
        try {
            return channel.write(srcs, offset, length);
        } finally {
            calls.add(Calls.Kind.IO, began);
        }
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        long began = System.nanoTime();
        try {
            return channel.read(dst, position);
        } finally {
            calls.add(Calls.Kind.IO, began);
        }
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
        long began = System.nanoTime();
        try {
            return channel.write(src, position);
        } finally {
            calls.add(Calls.Kind.IO, began);
        }
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
        long began = System.nanoTime();
        try {
            return channel.transferTo(position, count, beneath(target));
        } finally {
            calls.add(Calls.Kind.IO, began);
        }
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
        long began = System.nanoTime();
        try {
            return channel.transferFrom(beneath(src), position, count);
        } finally {
            calls.add(Calls.Kind.IO, began);
        }
    }

    @Override
    public long size() throws IOException {
        long began = System.nanoTime();
        try {
            return channel.size();
        } finally {
            calls.add(Calls.Kind.SIZE, began);
        }
    }

    @Override
    public long position() throws IOException {
        return channel.position();
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
        channel.position(newPosition);
        return this;
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
        long began = System.nanoTime();
        try {
            channel.truncate(size);
            return this;
        } finally {
            calls.add(Calls.Kind.OTHER, began);
        }
    }

    @Override
    public void force(boolean metaData) throws IOException {
        long began = System.nanoTime();
        try {
            channel.force(metaData);
        } finally {
            calls.add(Calls.Kind.IO, began);
        }
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
        return channel.map(mode, position, size);
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
        return channel.lock(position, size, shared);
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
        return channel.tryLock(position, size, shared);
    }

    @Override
    protected void implCloseChannel() throws IOException {
        long began = System.nanoTime();
        try {
            channel.close();
        } finally {
            calls.add(Calls.Kind.CLOSE, began);
        }
    }
}
