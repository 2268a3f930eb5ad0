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
 *   <li>{@code loop-gather}: write = the same fresh chunks, up to 1,024 per gathering write;</li>
 *   <li>{@code loop-fresh-64k}: read = a fresh 64 KiB heap buffer per read, the cost of handing
 *       out chunks the reader owns (sluice's default read chunk), without any library around it;</li>
 *   <li>{@code loop-fresh-direct-64k}: read = a fresh 64 KiB direct buffer per read, what owned
 *       direct chunks would cost;</li>
 *   <li>{@code loop-direct-64k}, {@code loop-direct-256k}: read = one 64 KiB (256 KiB) direct
 *       buffer reused (no copy through the JDK's temporary buffer: the fastest plain read); copy =
 *       the same buffer read then written;</li>
 *   <li>{@code files-copy}: copy = {@link Files#copy(Path, Path, java.nio.file.CopyOption...)}.</li>
 * </ul>
 */
public final class LoopProvider implements Provider {

    /** The loops' flavours. */
    public enum Kind {
        LOOP("loop"), GATHER("loop-gather"), FRESH_64K("loop-fresh-64k"),
        FRESH_DIRECT_64K("loop-fresh-direct-64k"), DIRECT_64K("loop-direct-64k"), DIRECT_256K("loop-direct-256k"),
        FILES_COPY("files-copy");

        private final String label;

        Kind(String label) {
            this.label = label;
        }
    }

    static final int GATHER_CHUNKS = 1024;
    static final int READ_BUFFER_BYTES = 8 * 1024;
    static final int FRESH_READ_BUFFER_BYTES = 64 * 1024;

    private final Kind kind;
    private final boolean virtual;
    private final ExecutorService threads;

    private LoopProvider(Kind kind, boolean virtual, ExecutorService threads) {
        this.kind = kind;
        this.virtual = virtual;
        this.threads = threads;
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
                } else {
                    writeOneByOne(channel, chunks);
                }
                if (sync) {
                    channel.force(true);
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

    @Override
    public CompletableFuture<?> read(Path source, long sizeBytes) {
        return CompletableFuture.supplyAsync(() -> {
            ReadCheck check = new ReadCheck(sizeBytes);
            ByteBuffer buffer = newReadBuffer();
            try (FileChannel channel = FileChannel.open(source, StandardOpenOption.READ)) {
                while (channel.read(buffer) >= 0) {
                    buffer.flip();
                    check.accept(buffer);
                    buffer = kind == Kind.FRESH_64K || kind == Kind.FRESH_DIRECT_64K ? newReadBuffer() : buffer.clear();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return check.finish();
        }, threads);
    }

    private ByteBuffer newReadBuffer() {
        switch (kind) {
            case FRESH_64K:
                return ByteBuffer.allocate(FRESH_READ_BUFFER_BYTES);
            case FRESH_DIRECT_64K:
            case DIRECT_64K:
                return ByteBuffer.allocateDirect(FRESH_READ_BUFFER_BYTES);
            case DIRECT_256K:
                return ByteBuffer.allocateDirect(4 * FRESH_READ_BUFFER_BYTES);
            default:
                return ByteBuffer.allocate(READ_BUFFER_BYTES);
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
                return copyLoop(source, target, newReadBuffer());
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
