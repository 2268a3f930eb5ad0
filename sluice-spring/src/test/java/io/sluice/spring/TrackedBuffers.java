package io.sluice.spring;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DataBufferWrapper;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.core.io.buffer.PooledDataBuffer;
import reactor.core.publisher.Flux;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

/**
 * Data buffers that record each release: how many times, and whether the target file already held
 * the buffer's bytes at that moment. A write test slices its content into these, lazily (one per
 * request), and asks afterwards whether each buffer created was released exactly once, never early.
 * Each wraps a buffer of a {@link DataBufferFactory} (Spring's default heap factory unless one is
 * given), which its first release releases in turn, so a factory's own accounting (Netty's pool,
 * reference counts) sees the same releases.
 */
final class TrackedBuffers {

    private final DataBufferFactory factory;
    private final byte[] content;
    private final int[] ends; // item i is content[ends[i - 1], ends[i])
    private final Path target; // null: do not check the file at release
    private final List<Tracked> created = new ArrayList<>(); // guarded by itself
    private final Semaphore releases = new Semaphore(0); // one permit per first release
    private final List<String> problems = new ArrayList<>(); // guarded by itself

    /** The content in items of {@code itemBytes} (the last one shorter). */
    TrackedBuffers(byte[] content, int itemBytes, Path target) {
        this(content, ends(content.length, itemBytes), target);
    }

    /** The content in items of {@code itemBytes} (the last one shorter), each allocated by {@code factory}. */
    TrackedBuffers(DataBufferFactory factory, byte[] content, int itemBytes, Path target) {
        this(factory, content, ends(content.length, itemBytes), target);
    }

    /** The content cut before each of {@code ends}, ascending, the last one the content's length. */
    TrackedBuffers(byte[] content, int[] ends, Path target) {
        this(DefaultDataBufferFactory.sharedInstance, content, ends, target);
    }

    /** The content cut before each of {@code ends}, each item allocated by {@code factory}. */
    TrackedBuffers(DataBufferFactory factory, byte[] content, int[] ends, Path target) {
        this.factory = factory;
        this.content = content;
        this.ends = ends;
        this.target = target;
    }

    private static int[] ends(int length, int itemBytes) {
        return IntStream.iterate(itemBytes, end -> end < length + itemBytes, end -> end + itemBytes)
                .map(end -> Math.min(end, length))
                .toArray();
    }

    /** The content as its items, each created on request. */
    Flux<DataBuffer> flux() {
        return Flux.range(0, ends.length).map(this::item);
    }

    /** Item {@code index}, created now and recorded. */
    DataBuffer item(int index) {
        int start = index == 0 ? 0 : ends[index - 1];
        int end = ends[index];
        DataBuffer bytes = factory.allocateBuffer(end - start);
        bytes.write(content, start, end - start);
        return adopt(bytes, start, end);
    }

    /**
     * {@code bytes}, which must hold content {@code [start, end)} (a buffer the factory joined, say),
     * tracked from now on: the wrapper's first release releases it.
     */
    DataBuffer adopt(DataBuffer bytes, int start, int end) {
        Tracked tracked = new Tracked(bytes, start, end);
        synchronized (created) {
            created.add(tracked);
        }
        return tracked;
    }

    int createdCount() {
        synchronized (created) {
            return created.size();
        }
    }

    /** Waits until every buffer created so far was released once (or fails after 30 s). */
    void awaitAllReleased() throws InterruptedException {
        int count = createdCount();
        if (!releases.tryAcquire(count, 30, TimeUnit.SECONDS)) {
            throw new AssertionError("not every buffer was released: " + releaseCounts());
        }
        releases.release(count);
    }

    /** Each buffer's release count, in creation order. */
    List<Integer> releaseCounts() {
        synchronized (created) {
            return created.stream().map(tracked -> tracked.releases.get()).toList();
        }
    }

    /** The factory's buffers under the wrappers created so far, in creation order. */
    List<DataBuffer> underlying() {
        synchronized (created) {
            return created.stream().map(Tracked::dataBuffer).toList();
        }
    }

    /** Early releases (file did not yet hold the bytes), releases of released buffers. */
    List<String> problems() {
        synchronized (problems) {
            return List.copyOf(problems);
        }
    }

    private void problem(String text) {
        synchronized (problems) {
            problems.add(text);
        }
    }

    /** A buffer of content {@code [start, end)} that counts its releases. */
    final class Tracked extends DataBufferWrapper implements PooledDataBuffer {
        final int start;
        final int end;
        final AtomicInteger releases = new AtomicInteger();

        Tracked(DataBuffer bytes, int start, int end) {
            super(bytes);
            this.start = start;
            this.end = end;
        }

        @Override
        public boolean isAllocated() {
            return releases.get() == 0;
        }

        @Override
        public PooledDataBuffer retain() {
            throw new UnsupportedOperationException("the writer must not retain");
        }

        @Override
        public PooledDataBuffer touch(Object hint) {
            return this;
        }

        @Override
        public boolean release() {
            if (releases.incrementAndGet() != 1) {
                problem("bytes [" + start + ", " + end + ") released twice");
                return false;
            }
            if (target != null && !fileHolds()) {
                problem("bytes [" + start + ", " + end + ") released before they were in the file");
            }
            DataBufferUtils.release(dataBuffer());
            TrackedBuffers.this.releases.release();
            return true;
        }

        private boolean fileHolds() {
            ByteBuffer inFile = ByteBuffer.allocate(end - start);
            try (FileChannel file = FileChannel.open(target, StandardOpenOption.READ)) {
                while (inFile.hasRemaining() && file.read(inFile, start + inFile.position()) > 0) {
                    // read the range
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return !inFile.hasRemaining() && Arrays.equals(inFile.array(), 0, end - start, content, start, end);
        }
    }
}
