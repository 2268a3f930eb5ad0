package io.sluice.bench.providers;

import io.sluice.IoExecutors;
import io.sluice.bench.Op;
import io.sluice.bench.Payload;
import io.sluice.bench.Provider;
import io.sluice.bench.ReadCheck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The plain-JDK baselines every figure is read against: blocking {@link FileChannel} loops, one
 * operation per thread (a cached pool of platform threads, or one virtual thread each on JDK 21+).
 * <ul>
 *   <li>{@code loop}: write = one {@code write} per fresh 1 KiB chunk; read = an 8 KiB heap buffer
 *       reused; copy = the same 8 KiB buffer read then written;</li>
 *   <li>{@code loop-gather}: write = the same fresh chunks, up to 1,024 per gathering write (the
 *       JDK copies each heap chunk into a temporary direct buffer of its own);</li>
 *   <li>{@code loop-staged-256k}: write = the same fresh chunks copied into one 256 KiB direct
 *       buffer, written with {@code FileChannel.write} whenever it is full and at the end: one
 *       copy and one system call per 256 KiB, as sluice's channel writer stages heap chunks (in
 *       256 KiB direct buffers, core's {@code StagingBuffers.STAGING_BYTES});</li>
 *   <li>{@code loop-fresh-64k}: read = a fresh 64 KiB heap buffer per read, the cost of handing
 *       out chunks the reader owns (sluice's default read chunk), without any library around it;</li>
 *   <li>{@code loop-fresh-direct-64k}: read = a fresh 64 KiB direct buffer per read, what owned
 *       direct chunks would cost;</li>
 *   <li>{@code loop-direct-64k}, {@code loop-direct-256k}: read = one 64 KiB (256 KiB) direct
 *       buffer reused (no copy through the JDK's temporary buffer: the fastest plain read); copy =
 *       the same buffer read then written;</li>
 *   <li>{@code files-copy}: copy = {@link Files#copy(Path, Path, java.nio.file.CopyOption...)}.</li>
 * </ul>
 * The reused direct buffers come from a small pool per provider, taken for one operation and
 * given back at its end, so that short operations do not each allocate (and zero) one.
 * A durable write ends with {@link DurableEnd#force}: the file with its metadata, then its directory.
 */
public final class LoopProvider implements Provider {

    /** The loops' flavours. */
    public enum Kind {
        LOOP("loop"), GATHER("loop-gather"), FRESH_64K("loop-fresh-64k"),
        FRESH_DIRECT_64K("loop-fresh-direct-64k"), DIRECT_64K("loop-direct-64k"), DIRECT_256K("loop-direct-256k"),
        STAGED_256K("loop-staged-256k"), FILES_COPY("files-copy");

        private final String label;

        Kind(String label) {
            this.label = label;
        }
    }

    static final int GATHER_CHUNKS = 1024;                 // loop-gather's chunks per gathering write
    static final int READ_BUFFER_BYTES = 8 * 1024;         // loop's read buffer
    static final int FRESH_READ_BUFFER_BYTES = 64 * 1024;  // the 64 KiB loops' buffers
    static final int STAGING_BYTES = 256 * 1024;           // loop-staged-256k's and loop-direct-256k's buffer
    /** Idle direct buffers a provider keeps for its next operations; more in use are dropped when given back. */
    static final int POOL_LIMIT = 16;

    private final Kind kind;
    private final boolean virtual;
    private final ExecutorService threads;
    private final DirectBuffers directBuffers;  // the reused direct buffers; any operation's thread

    private LoopProvider(Kind kind, boolean virtual, ExecutorService threads) {
        this.kind = kind;
        this.virtual = virtual;
        this.threads = threads;
        this.directBuffers = new DirectBuffers(kind == Kind.DIRECT_64K ? FRESH_READ_BUFFER_BYTES
                : kind == Kind.DIRECT_256K || kind == Kind.STAGED_256K ? STAGING_BYTES : 0);
    }

    /** The loop on platform threads. */
    public static LoopProvider platform(Kind kind) {
        return new LoopProvider(kind, false, Executors.newCachedThreadPool(new DaemonThreads(kind.label)));
    }

    /** The loop on virtual threads; needs JDK 21+ ({@link IoExecutors#virtualThreadsAvailable()}). */
    public static LoopProvider virtual(Kind kind) {
        return new LoopProvider(kind, true, IoExecutors.newVirtualThreadExecutor());
    }

    @Override
    public String name() {
        return (virtual ? "vt-" : "") + kind.label;
    }

    @Override
    public boolean baseline() {
        return true;
    }

    @Override
    public boolean supports(Op op) {
        switch (kind) {
            case LOOP:
                return true;
            case GATHER:
            case STAGED_256K:
                return op == Op.WRITE || op == Op.WRITE_SYNC;
            case FRESH_64K:
            case FRESH_DIRECT_64K:
                return op == Op.READ;
            case DIRECT_64K:
            case DIRECT_256K:
                return op == Op.READ || op == Op.COPY;
            case FILES_COPY:
                return op == Op.COPY;
            default:
                return false;
        }
    }

    @Override
    public CompletableFuture<?> write(Path target, long chunks, boolean sync) {
        return CompletableFuture.supplyAsync(() -> {
            try (FileChannel channel = FileChannel.open(target, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
                if (kind == Kind.GATHER) {
                    writeGathering(channel, chunks);
                } else if (kind == Kind.STAGED_256K) {
                    writeStaged(channel, chunks);
                } else {
                    writeOneByOne(channel, chunks);
                }
                if (sync) {
                    DurableEnd.force(channel, target);
                }
                return chunks * Payload.CHUNK_BYTES;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, threads);
    }

    private static void writeOneByOne(FileChannel channel, long chunks) throws IOException {
        for (long index = 0; index < chunks; index++) {
            ByteBuffer chunk = Payload.freshChunk(index);
            while (chunk.hasRemaining()) {
                channel.write(chunk);
            }
        }
    }

    private static void writeGathering(FileChannel channel, long chunks) throws IOException {
        ByteBuffer[] batch = new ByteBuffer[GATHER_CHUNKS];
        for (long next = 0; next < chunks; ) {
            int count = (int) Math.min(GATHER_CHUNKS, chunks - next);
            for (int i = 0; i < count; i++) {
                batch[i] = Payload.freshChunk(next + i);
            }
            int first = 0;
            while (first < count) {
                channel.write(batch, first, count - first);
                while (first < count && !batch[first].hasRemaining()) {
                    first++;
                }
            }
            next += count;
        }
    }

    /** Copies the chunks into one reused direct buffer, written whenever the next chunk would not fit. */
    private void writeStaged(FileChannel channel, long chunks) throws IOException {
        ByteBuffer staging = directBuffers.take();
        try {
            for (long index = 0; index < chunks; index++) {
                ByteBuffer chunk = Payload.freshChunk(index);  // CHUNK_BYTES, far below STAGING_BYTES
                if (staging.remaining() < chunk.remaining()) {
                    writeOut(channel, staging);
                }
                staging.put(chunk);
            }
            writeOut(channel, staging);
        } finally {
            directBuffers.give(staging);
        }
    }

    /** Writes what {@code staging} holds and clears it for the next chunks. */
    private static void writeOut(FileChannel channel, ByteBuffer staging) throws IOException {
        staging.flip();
        while (staging.hasRemaining()) {
            channel.write(staging);
        }
        staging.clear();
    }

    @Override
    public CompletableFuture<?> read(Path source, long sizeBytes) {
        return CompletableFuture.supplyAsync(() -> {
            ReadCheck check = new ReadCheck(sizeBytes);
            boolean fresh = kind == Kind.FRESH_64K || kind == Kind.FRESH_DIRECT_64K;
            ByteBuffer buffer = takeReadBuffer();
            try (FileChannel channel = FileChannel.open(source, StandardOpenOption.READ)) {
                while (channel.read(buffer) >= 0) {
                    buffer.flip();
                    check.accept(buffer);
                    buffer = fresh ? takeReadBuffer() : buffer.clear();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                giveBackReadBuffer(buffer);
            }
            return check.finish();
        }, threads);
    }

    /** The buffer one read (or copy) step reads into: fresh, or the pooled direct one, or 8 KiB heap. */
    private ByteBuffer takeReadBuffer() {
        switch (kind) {
            case FRESH_64K:
                return ByteBuffer.allocate(FRESH_READ_BUFFER_BYTES);
            case FRESH_DIRECT_64K:
                return ByteBuffer.allocateDirect(FRESH_READ_BUFFER_BYTES);
            case DIRECT_64K:
            case DIRECT_256K:
                return directBuffers.take();
            default:
                return ByteBuffer.allocate(READ_BUFFER_BYTES);
        }
    }

    private void giveBackReadBuffer(ByteBuffer buffer) {
        if (kind == Kind.DIRECT_64K || kind == Kind.DIRECT_256K) {
            directBuffers.give(buffer);
        }
    }

    @Override
    public CompletableFuture<?> copy(Path source, Path target) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                if (kind == Kind.FILES_COPY) {
                    Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
                    return Files.size(target);
                }
                ByteBuffer buffer = takeReadBuffer();
                try {
                    return copyLoop(source, target, buffer);
                } finally {
                    giveBackReadBuffer(buffer);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, threads);
    }

    private static long copyLoop(Path source, Path target, ByteBuffer buffer) throws IOException {
        long copied = 0;
        try (FileChannel from = FileChannel.open(source, StandardOpenOption.READ);
             FileChannel to = FileChannel.open(target, StandardOpenOption.CREATE,
                     StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            while (from.read(buffer) >= 0) {
                buffer.flip();
                while (buffer.hasRemaining()) {
                    copied += to.write(buffer);
                }
                buffer.clear();
            }
        }
        return copied;
    }

    @Override
    public void close() {
        threads.shutdownNow();
        try {
            threads.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The provider's reused direct buffers, all of one size: taken for one operation, given back
     * at its end, at most {@link #POOL_LIMIT} kept idle. Any operation's thread takes and gives.
     */
    private static final class DirectBuffers {
        private final int bufferBytes;
        private final ConcurrentLinkedDeque<ByteBuffer> idle = new ConcurrentLinkedDeque<>(); // any thread
        private final AtomicInteger idleCount = new AtomicInteger();                          // any thread

        DirectBuffers(int bufferBytes) {
            this.bufferBytes = bufferBytes;
        }

        /** A cleared buffer: an idle one if there is one, else a new one. */
        ByteBuffer take() {
            ByteBuffer buffer = idle.pollFirst();
            if (buffer == null) {
                return ByteBuffer.allocateDirect(bufferBytes);
            }
            idleCount.decrementAndGet();
            return buffer.clear();
        }

        /** Keeps {@code buffer} for the next operation, or drops it (to the GC) if enough are idle. */
        void give(ByteBuffer buffer) {
            if (idleCount.incrementAndGet() <= POOL_LIMIT) {
                idle.offerFirst(buffer);
            } else {
                idleCount.decrementAndGet();
            }
        }
    }

    private static final class DaemonThreads implements ThreadFactory {
        private final String prefix;
        private final AtomicInteger next = new AtomicInteger(1);

        DaemonThreads(String prefix) {
            this.prefix = prefix + "-";
        }

        @Override
        public Thread newThread(Runnable task) {
            Thread thread = new Thread(task, prefix + next.getAndIncrement());
            thread.setDaemon(true);
            return thread;
        }
    }
}
