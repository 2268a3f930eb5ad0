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
import java.util.concurrent.atomic.LongAdder;

/**
 * The plain-JDK baselines every figure is read against: blocking {@link FileChannel} loops, one
 * operation per thread (a cached pool of platform threads, or one virtual thread each on JDK 21+).
 * The targets are stated against the loop a careful engineer writes for each job, so that a ratio
 * to it is the cost of sluice's API, not of a loop left slow; the other rows are secondary or model
 * something else:
 * <ul>
 * <li>{@code loop-reused-staged-256k} writes by copying the chunks into the thread's 256 KiB direct
 *     buffer, one system call per 256 KiB and no copy through the JDK's temporary buffer: the work
 *     sluice's writer does, without its hand-offs; the write targets are stated against it.</li>
 * <li>{@code loop-reused-direct-64k} (and {@code -256k}) reads and copies through the thread's
 *     direct buffer: the JDK reads into it directly, where a heap buffer costs one more copy per
 *     read; the lent read targets are stated against it.</li>
 * <li>{@code loop-transfer} copies with {@link FileChannel#transferTo} until the file is moved, so
 *     the bytes never enter user space: what a careful engineer uses for a file-to-file copy, and
 *     the baseline of the copy targets. {@code files-copy} is {@link Files#copy}.</li>
 * <li>{@code loop-gather} hands up to 1,024 chunks to one gathering write, the natural loop for a
 *     batch of small heap buffers.</li>
 * <li>{@code loop}, one 8 KiB heap buffer per operation and one write per chunk, is the loop most
 *     code has: a secondary row, which the targets kept beside the restated ones are stated against.</li>
 * <li>{@code loop-staged-256k}, {@code loop-direct-64k} and {@code loop-direct-256k} do the same
 *     work as their {@code loop-reused-} forms with buffers from a pool of at most
 *     {@value #POOL_LIMIT} idle ones per loop, so that with more operations at once than that most
 *     of them allocate a fresh direct buffer: secondary rows, kept for one release so that a run
 *     reads beside the earlier runs that measured these names; the lent reads' earlier 0.85x target,
 *     kept beside its restatement, is stated against {@code loop-direct-64k}.</li>
 * <li>{@code loop-fresh-64k} and {@code loop-fresh-direct-64k} allocate a buffer per read on
 *     purpose: they model handing out chunks the reader owns, not a loop to beat.</li>
 * </ul>
 * The reused direct buffers are {@link ReusedBuffers}: one per thread, so no operation allocates
 * once a thread has run one, however many run at once. A durable write ends with {@link #force}:
 * the file with its metadata, then its directory.
 */
final class LoopProvider extends NamedProvider {

    /** The buffers a loop reads, copies or stages through. */
    enum Buffers {
        NONE,
        HEAP_8K,
        FRESH_HEAP_64K,
        FRESH_DIRECT_64K,
        POOLED_DIRECT_64K,
        POOLED_DIRECT_256K,
        REUSED_DIRECT_64K,
        REUSED_DIRECT_256K;

        boolean fresh() {
            return this == FRESH_HEAP_64K || this == FRESH_DIRECT_64K;
        }

        boolean pooled() {
            return this == POOLED_DIRECT_64K || this == POOLED_DIRECT_256K;
        }

        int reusedBytes() {
            return this == REUSED_DIRECT_64K ? 64 * 1024 : this == REUSED_DIRECT_256K ? STAGING_BYTES : 0;
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
        REUSED_STAGED_256K("loop-reused-staged-256k", EnumSet.of(Op.WRITE, Op.WRITE_SYNC), Buffers.REUSED_DIRECT_256K),
        STAGED_256K("loop-staged-256k", EnumSet.of(Op.WRITE, Op.WRITE_SYNC), Buffers.POOLED_DIRECT_256K),
        FRESH_64K("loop-fresh-64k", EnumSet.of(Op.READ), Buffers.FRESH_HEAP_64K),
        FRESH_DIRECT_64K("loop-fresh-direct-64k", EnumSet.of(Op.READ), Buffers.FRESH_DIRECT_64K),
        REUSED_DIRECT_64K("loop-reused-direct-64k", EnumSet.of(Op.READ, Op.COPY), Buffers.REUSED_DIRECT_64K),
        REUSED_DIRECT_256K("loop-reused-direct-256k", EnumSet.of(Op.READ, Op.COPY), Buffers.REUSED_DIRECT_256K),
        DIRECT_64K("loop-direct-64k", EnumSet.of(Op.READ, Op.COPY), Buffers.POOLED_DIRECT_64K),
        DIRECT_256K("loop-direct-256k", EnumSet.of(Op.READ, Op.COPY), Buffers.POOLED_DIRECT_256K),
        TRANSFER("loop-transfer", EnumSet.of(Op.COPY), Buffers.NONE),
        FILES_COPY("files-copy", EnumSet.of(Op.COPY), Buffers.NONE); // Files.copy

        private final String label;
        private final Set<Op> ops;
        private final Buffers buffers;

        Kind(String label, Set<Op> ops, Buffers buffers) {
            this.label = label;
            this.ops = ops;
            this.buffers = buffers;
        }

        boolean staged() {
            return this == STAGED_256K || this == REUSED_STAGED_256K;
        }
    }

    static final int GATHER_CHUNKS = 1024; // loop-gather's chunks per gathering write
    static final int STAGING_BYTES = 256 * 1024; // core's StagingBuffers.STAGING_BYTES
    static final int POOL_LIMIT = 16; // the pooled loops' idle buffers kept; more given back are dropped

    private final Kind kind;
    private final ExecutorService threads;
    private final AtomicInteger threadsStarted = new AtomicInteger(); // platform threads only
    private final ReusedBuffers reused; // null unless the kind reuses direct buffers
    private final BlockingDeque<ByteBuffer> idleBuffers = new LinkedBlockingDeque<>(POOL_LIMIT); // any thread
    private final LongAdder pooledAllocated = new LongAdder();

    private LoopProvider(String name, Kind kind) {
        super(name, kind.ops);
        this.kind = kind;
        boolean virtual = name.startsWith("vt-");
        this.threads = virtual
                ? IoExecutors.newVirtualThreadExecutor() // JDK 21+
                : Executors.newCachedThreadPool(task -> {
                    Thread thread = new Thread(task, name + "-" + threadsStarted.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        int bytes = kind.buffers.reusedBytes();
        this.reused =
                bytes == 0 ? null : virtual ? ReusedBuffers.betweenOperations(bytes) : ReusedBuffers.perThread(bytes);
    }

    /** The loop whose row label is {@code name}: a kind's label, prefixed {@code vt-} for virtual threads. */
    static Optional<LoopProvider> named(String name) {
        String label = name.startsWith("vt-") ? name.substring("vt-".length()) : name;
        return Arrays.stream(Kind.values())
                .filter(kind -> kind.label.equals(label))
                .findFirst()
                .map(kind -> new LoopProvider(name, kind));
    }

    private <T> CompletableFuture<T> async(Callable<T> operation) {
        return CompletableFuture.supplyAsync(
                () -> {
                    try {
                        return operation.call();
                    } catch (Exception e) {
                        throw e instanceof IOException io ? new UncheckedIOException(io) : new CompletionException(e);
                    }
                },
                threads);
    }

    @Override
    public CompletableFuture<?> write(Path target, long chunks, boolean sync) {
        return async(() -> {
            try (FileChannel channel = FileChannel.open(
                    target,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE)) {
                if (kind == Kind.GATHER) { // the JDK copies each chunk into a temporary direct buffer
                    Payload.writeGathering(channel, chunks, GATHER_CHUNKS);
                } else if (kind.staged()) {
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
     * Copies the chunks into a 256 KiB direct buffer (the thread's, or one from the pool), written when full and
     * at the end, as sluice's channel writer stages heap chunks: one copy and one system call per 256 KiB.
     */
    private void writeStaged(FileChannel channel, long chunks) throws IOException {
        ByteBuffer staging = takeBuffer();
        try {
            for (long index = 0; index < chunks; index++) {
                ByteBuffer chunk = Payload.freshChunk(index); // CHUNK_BYTES, far below STAGING_BYTES
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
            if (kind == Kind.TRANSFER) {
                return transfer(source, target);
            }
            long copied = 0;
            ByteBuffer buffer = takeBuffer();
            try (FileChannel from = FileChannel.open(source, StandardOpenOption.READ);
                    FileChannel to = FileChannel.open(
                            target,
                            StandardOpenOption.CREATE,
                            StandardOpenOption.TRUNCATE_EXISTING,
                            StandardOpenOption.WRITE)) {
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

    /**
     * Copies {@code source} to {@code target} with {@link FileChannel#transferTo} from where the last
     * call stopped until the whole file has moved: the kernel copies (sendfile or, on newer JDKs,
     * copy_file_range on Linux) without the bytes entering user space.
     */
    private static long transfer(Path source, Path target) throws IOException {
        try (FileChannel from = FileChannel.open(source, StandardOpenOption.READ);
                FileChannel to = FileChannel.open(
                        target,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.TRUNCATE_EXISTING,
                        StandardOpenOption.WRITE)) {
            long size = from.size();
            long position = 0;
            while (position < size) {
                long moved = from.transferTo(position, size - position, to);
                if (moved == 0 && from.size() <= position) {
                    throw new IOException(source + " ended at " + position + " of its " + size + " bytes");
                }
                position += moved;
            }
            return position;
        }
    }

    /**
     * The buffer one step reads into (or stages in): a fresh one, the reused one of this operation, or an idle
     * pooled one (a new one when none is idle).
     */
    private ByteBuffer takeBuffer() {
        return switch (kind.buffers) {
            case HEAP_8K -> ByteBuffer.allocate(8 * 1024);
            case FRESH_HEAP_64K -> ByteBuffer.allocate(64 * 1024);
            case FRESH_DIRECT_64K -> ByteBuffer.allocateDirect(64 * 1024);
            case POOLED_DIRECT_64K -> pooled(64 * 1024);
            case POOLED_DIRECT_256K -> pooled(STAGING_BYTES);
            case REUSED_DIRECT_64K, REUSED_DIRECT_256K -> reused.take();
            case NONE -> throw new IllegalStateException(kind.label + " copies without a buffer");
        };
    }

    private ByteBuffer pooled(int bytes) {
        ByteBuffer idle = idleBuffers.pollFirst();
        if (idle != null) {
            return idle.clear();
        }
        pooledAllocated.increment();
        return ByteBuffer.allocateDirect(bytes);
    }

    /**
     * Ends this operation's use of a reused buffer, or keeps a pooled one for the next operation (dropped to
     * the GC if {@value #POOL_LIMIT} are idle already); fresh ones go to the GC.
     */
    private void giveBack(ByteBuffer buffer) {
        if (reused != null) {
            reused.giveBack(buffer);
        } else if (kind.buffers.pooled()) {
            idleBuffers.offerFirst(buffer);
        }
    }

    /** How many reused direct buffers this loop has allocated: at most one per thread it has started. */
    long reusedBuffersAllocated() {
        return reused == null ? 0 : reused.allocated();
    }

    /** How many direct buffers this loop has allocated for its pool, including those the full pool dropped. */
    long pooledBuffersAllocated() {
        return pooledAllocated.sum();
    }

    /** How many platform threads this loop has started. */
    int threadsStarted() {
        return threadsStarted.get();
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
