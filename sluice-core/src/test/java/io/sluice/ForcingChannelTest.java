package io.sluice;

import io.sluice.testing.TestPublishers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code withSync()} forces a user's {@link FileChannel} too, not only files the library opens. */
class ForcingChannelTest {

    @TempDir
    Path dir;

    @Test
    void syncForcesAUsersFileChannelBeforeCompleting() throws Exception {
        Path file = dir.resolve("out");
        CountingFileChannel channel =
                new CountingFileChannel(FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE));
        ByteChannels.write(
                        channel,
                        TestPublishers.chunks(new byte[5000], 1000),
                        WriteOptions.defaults().withSync())
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        assertEquals(1, channel.forces.get());
        assertEquals(5000, Files.size(file));

        CountingFileChannel unsynced = new CountingFileChannel(
                FileChannel.open(dir.resolve("other"), StandardOpenOption.CREATE, StandardOpenOption.WRITE));
        ByteChannels.write(unsynced, TestPublishers.chunks(new byte[10], 5), WriteOptions.defaults())
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        assertEquals(0, unsynced.forces.get());
    }

    /** Delegates to a real file channel and counts {@code force} calls. */
    static final class CountingFileChannel extends FileChannel {
        final AtomicInteger forces = new AtomicInteger();
        private final FileChannel delegate;

        CountingFileChannel(FileChannel delegate) {
            this.delegate = delegate;
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            return delegate.read(dst);
        }

        @Override
        public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
            return delegate.read(dsts, offset, length);
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            return delegate.write(src);
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
            return delegate.write(srcs, offset, length);
        }

        @Override
        public long position() throws IOException {
            return delegate.position();
        }

        @Override
        public FileChannel position(long newPosition) throws IOException {
            delegate.position(newPosition);
            return this;
        }

        @Override
        public long size() throws IOException {
            return delegate.size();
        }

        @Override
        public FileChannel truncate(long size) throws IOException {
            delegate.truncate(size);
            return this;
        }

        @Override
        public void force(boolean metaData) throws IOException {
            forces.incrementAndGet();
            delegate.force(metaData);
        }

        @Override
        public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
            return delegate.transferTo(position, count, target);
        }

        @Override
        public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
            return delegate.transferFrom(src, position, count);
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            return delegate.read(dst, position);
        }

        @Override
        public int write(ByteBuffer src, long position) throws IOException {
            return delegate.write(src, position);
        }

        @Override
        public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
            return delegate.map(mode, position, size);
        }

        @Override
        public FileLock lock(long position, long size, boolean shared) throws IOException {
            return delegate.lock(position, size, shared);
        }

        @Override
        public FileLock tryLock(long position, long size, boolean shared) throws IOException {
            return delegate.tryLock(position, size, shared);
        }

        @Override
        protected void implCloseChannel() throws IOException {
            delegate.close();
        }
    }
}
