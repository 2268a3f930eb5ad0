package io.sluice.bench.providers;

import io.sluice.IoExecutors;
import io.sluice.bench.Op;
import io.sluice.bench.Payload;
import io.sluice.bench.ReadCheck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The plain-JDK baselines every figure is read against: blocking {@link FileChannel} loops, one
 * operation per thread (a cached pool of platform threads, or one virtual thread each on JDK 21+).
 * The reused direct buffers come from a small pool per provider, taken for one operation and given
 * back at its end, so that short operations do not each allocate (and zero) one.
 * A durable write ends with {@link #force}: the file with its metadata, then its directory.
 */
final class LoopProvider extends NamedProvider {

    /** The buffers a loop reads, copies or stages through. */
    enum Buffers {
        HEAP_8K, FRESH_HEAP_64K, FRESH_DIRECT_64K, POOLED_DIRECT_64K, POOLED_DIRECT_256K;

        boolean fresh() {
            return this == FRESH_HEAP_64K || this == FRESH_DIRECT_64K;
        }

        boolean pooled() {
            return this == POOLED_DIRECT_64K || this == POOLED_DIRECT_256K;
        }
    }

    /**
     * The loops' flavours: the operations each has a row for, and its buffers. A fresh buffer per read is
     * the cost of handing out chunks the reader owns (sluice's default 64 KiB); a reused direct buffer
     * avoids the copy through the JDK's temporary buffer, the fastest plain read.
     */
    enum Kind {
        LOOP("loop", EnumSet.allOf(Op.class), Buffers.HEAP_8K),
        GATHER("loop-gather", EnumSet.of(Op.WRITE, Op.WRITE_SYNC), Buffers.HEAP_8K),
        STAGED_256K("loop-staged-256k", EnumSet.of(Op.WRITE, Op.WRITE_SYNC), Buffers.POOLED_DIRECT_256K),
        FRESH_64K("loop-fresh-64k", EnumSet.of(Op.READ), Buffers.FRESH_HEAP_64K),
        FRESH_DIRECT_64K("loop-fresh-direct-64k", EnumSet.of(Op.READ), Buffers.FRESH_DIRECT_64K),
        DIRECT_64K("loop-direct-64k", EnumSet.of(Op.READ, Op.COPY), Buffers.POOLED_DIRECT_64K),
        DIRECT_256K("loop-direct-256k", EnumSet.of(Op.READ, Op.COPY), Buffers.POOLED_DIRECT_256K),
        FILES_COPY("files-copy", EnumSet.of(Op.COPY), null);  // Files.copy

        private final String label;
        private final Set<Op> ops;
        private final Buffers buffers;

        Kind(String label, Set<Op> ops, Buffers buffers) {
            this.label = label;
            this.ops = ops;
            this.buffers = buffers;
        }
    }

    static final int GATHER_CHUNKS = 1024;        // loop-gather's chunks per gathering write
    static final int STAGING_BYTES = 256 * 1024;  // core's StagingBuffers.STAGING_BYTES
    static final int POOL_LIMIT = 16;             // idle direct buffers kept; more given back are dropped

    private final Kind kind;
    private final ExecutorService threads;
    private final BlockingDeque<ByteBuffer> idleBuffers = new LinkedBlockingDeque<>(POOL_LIMIT); // any thread

    private LoopProvider(String name, Kind kind) {
        super(name, kind.ops);
        this.kind = kind;
        AtomicInteger next = new AtomicInteger();
        this.threads = name.startsWith("vt-") ? IoExecutors.newVirtualThreadExecutor()  // JDK 21+
                : Executors.newCachedThreadPool(task -> {
                    Thread thread = new Thread(task, name + "-" + next.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
    }

    /** The loop whose row label is {@code name}: a kind's label, prefixed {@code vt-} for virtual threads. */
    static Optional<LoopProvider> named(String name) {
        String label = name.startsWith("vt-") ? name.substring("vt-".length()) : name;
        return Arrays.stream(Kind.values()).filter(kind -> kind.label.equals(label)).findFirst()
                .map(kind -> new LoopProvider(name, kind));
    }

    private <T> CompletableFuture<T> async(Callable<T> operation) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return operation.call();
            } catch (Exception e) {
                throw e instanceof IOException io ? new UncheckedIOException(io) : new CompletionException(e);
            }
        }, threads);
    }

    @Override
    public CompletableFuture<?> write(Path target, long chunks, boolean sync) {
        return async(() -> {
            try (FileChannel channel = FileChannel.open(target, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
                if (kind == Kind.GATHER) {          // the JDK copies each chunk into a temporary direct buffer
                    Payload.writeGathering(channel, chunks, GATHER_CHUNKS);
                } else if (kind == Kind.STAGED_256K) {
                    writeStaged(channel, chunks);
                } else {
                    for (long index = 0; index < chunks; index++) {
                        writeFully(channel, Payload.freshChunk(index));
                    }
                }
                if (sync) {
                    force(channel, target);
                }
                return chunks * Payload.CHUNK_BYTES;
            }
        });
    }

    /**
     * Copies the chunks into one pooled direct buffer, written when full and at the end, as sluice's
     * channel writer stages heap chunks: one copy and one system call per 256 KiB.
     */
    private void writeStaged(FileChannel channel, long chunks) throws IOException {
        ByteBuffer staging = takeBuffer();
        try {
            for (long index = 0; index < chunks; index++) {
                ByteBuffer chunk = Payload.freshChunk(index);  // CHUNK_BYTES, far below STAGING_BYTES
                if (staging.remaining() < chunk.remaining()) {
                    writeFully(channel, staging.flip());
                    staging.clear();
                }
                staging.put(chunk);
            }
            writeFully(channel, staging.flip());
        } finally {
            giveBack(staging);
        }
    }

    private static long writeFully(FileChannel channel, ByteBuffer buffer) throws IOException {
        long written = 0;
        while (buffer.hasRemaining()) {
            written += channel.write(buffer);
        }
        return written;
    }

    @Override
    public CompletableFuture<?> read(Path source, long sizeBytes) {
        return async(() -> {
            ReadCheck check = new ReadCheck(sizeBytes);
            boolean fresh = kind.buffers.fresh();
            ByteBuffer buffer = takeBuffer();
            try (FileChannel channel = FileChannel.open(source, StandardOpenOption.READ)) {
                while (channel.read(buffer) >= 0) {
                    check.accept(buffer.flip());
                    buffer = fresh ? takeBuffer() : buffer.clear();
                }
            } finally {
                giveBack(buffer);
            }
            return check.finish();
        });
    }

    @Override
    public CompletableFuture<?> copy(Path source, Path target) {
        return async(() -> {
            if (kind == Kind.FILES_COPY) {
                Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
                return Files.size(target);
            }
            long copied = 0;
            ByteBuffer buffer = takeBuffer();
            try (FileChannel from = FileChannel.open(source, StandardOpenOption.READ);
                 FileChannel to = FileChannel.open(target, StandardOpenOption.CREATE,
                         StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
                while (from.read(buffer) >= 0) {
                    copied += writeFully(to, buffer.flip());
                    buffer.clear();
                }
            } finally {
                giveBack(buffer);
            }
            return copied;
        });
    }

    /** The buffer one step reads into (or stages in): fresh, an idle pooled one, or a new one. */
    private ByteBuffer takeBuffer() {
        ByteBuffer idle = kind.buffers.pooled() ? idleBuffers.pollFirst() : null;
        return switch (kind.buffers) {
            case HEAP_8K -> ByteBuffer.allocate(8 * 1024);
            case FRESH_HEAP_64K -> ByteBuffer.allocate(64 * 1024);
            case FRESH_DIRECT_64K -> ByteBuffer.allocateDirect(64 * 1024);
            case POOLED_DIRECT_64K -> idle != null ? idle.clear() : ByteBuffer.allocateDirect(64 * 1024);
            case POOLED_DIRECT_256K -> idle != null ? idle.clear() : ByteBuffer.allocateDirect(STAGING_BYTES);
        };
    }

    /** Keeps a pooled buffer for the next operation, or drops it (to the GC) if enough are idle. */
    private void giveBack(ByteBuffer buffer) {
        if (kind.buffers.pooled()) {
            idleBuffers.offerFirst(buffer);
        }
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
}
