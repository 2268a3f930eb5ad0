package io.sluice;

import io.sluice.internal.ChunkArena;
import io.sluice.internal.Loans;

import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Direct buffers that reads lend out and consumers give back, so that a read allocates nothing per
 * chunk in steady state. A read with {@link ReadOptions#withLentChunks()} emits lent chunks;
 * the rule for whoever receives one:
 *
 * <blockquote><b>A lent chunk is yours until you give it back with {@link #giveBack}; after that,
 * do not touch it. One you never give back is simply garbage.</b></blockquote>
 *
 * <pre>{@code
 * Flux.from(ReactiveFile.of(file).read(ReadOptions.defaults().withLentChunks()))
 *     .doOnNext(chunk -> { digest.update(chunk); ChunkPool.giveBack(chunk); })
 * }</pre>
 *
 * <p>sluice's own consumers give back every lent chunk once they are done with it: the writers of
 * {@link ReactiveFile}, {@link ByteChannels} and {@link ByteStreams} after the chunk's bytes are
 * written (or the write ended without them). A buffer of your own lent with
 * {@link #lend(ByteBuffer, Runnable)} is given back the same way, to your callback. A chunk has one
 * holder at a time: to hand it to two consumers (a broadcast), copy it for the second.
 *
 * <p><b>Safety:</b> every loan is a new buffer object, and the pool knows which objects are out.
 * A chunk's memory is lent again only after that very object was given back, or after the garbage
 * collector found it (and every view sliced from it) unreachable: content a holder can still reach
 * is never overwritten by another read. Giving back a buffer the pool did not lend, or one already
 * given back, throws.
 *
 * <p><b>Slices and duplicates</b> of a lent chunk are views, not loans: {@link #isLent} is false
 * for them and {@link #giveBack} refuses them, with a message saying to give back the chunk
 * itself. A consumer that receives one, sluice's writers included, treats it as an owned buffer:
 * it writes its bytes and gives nothing back. So a chunk that only reaches its consumer as a view,
 * as in {@code Flux.map(ByteBuffer::slice)} between a lent read and a writer, is never given back:
 * it is a leak the pool survives, not corruption. Its memory stays out of the pool, untouched,
 * while the view (or the chunk) is reachable, and is freed by the collector afterwards; the pool
 * allocates new memory in its place, or lends heap chunks past its bound meanwhile, so the
 * chain pays what owned chunks cost and more. With leak detection on
 * ({@code -Dsluice.leakDetection=true}) each such chunk is reported with where it was lent.
 * Tracking views instead would need the memory address of any direct buffer (no public API on
 * Java 17) or an entry per view, and a view's holder could not know it had to give it back.
 * To narrow what a consumer sees, move the chunk's position and limit rather than slicing it, or
 * copy what you keep and give the chunk back:
 *
 * <pre>{@code
 * Flux.from(read).map(chunk -> chunk.position(headerBytes))   // the same object: still the loan
 * }</pre>
 *
 * <p><b>Leaks</b>, chunks never given back, are ordinary garbage and cost only pooling. To find
 * them, run with {@code -Dsluice.leakDetection=true}: each loan then records the stack that lent
 * it, {@link #touch} records where it was last handled, and each chunk the collector finds still
 * out on loan is logged (logger {@code io.sluice.ChunkPool}, level {@code WARNING}) with both,
 * when the next chunk is lent. Off by default; on, every loan captures a stack trace.
 *
 * <p><b>Threading:</b> thread-safe; chunks may be given back from any thread, in any order,
 * during or after the read that lent them.
 *
 * <p><b>Backpressure:</b> a read borrows one chunk per item requested, never ahead of demand, so
 * the chunks out on a read are at most the items its subscriber requested and has not given back.
 *
 * <p><b>Resources:</b> a pool holds at most {@link #maxChunks()} direct buffers of
 * {@link #chunkSizeBytes()}, allocated as reads need them and kept for reuse until the pool itself
 * is unreachable. When all are out (consumers hold them, or dropped them and the collector has not
 * found them yet), a read is lent a heap chunk instead, which is ordinary garbage afterwards
 * ({@link #overflowed()} counts them): direct memory stays within the bound whatever consumers do.
 * A {@linkplain #shared shared pool} whose chunk size is larger than its whole budget holds no
 * buffers at all ({@link #maxChunks()} is 0): it lends each chunk unpooled, as a heap buffer of
 * its own of at most twice the chunk's bytes, which is never kept: given back (once, as any lent
 * chunk) or dropped, it is garbage, as an overflow chunk is. Not a direct one: direct memory is
 * freed only when the collector finds its buffer, so a direct buffer per huge chunk could exhaust
 * it between collections. So no chunk size makes a pool hold more direct memory than its bound,
 * and a huge chunk costs what a huge owned chunk costs.
 *
 * <p><b>Errors:</b> {@link #giveBack} throws {@link IllegalArgumentException} for a buffer that is
 * not out on loan; the factories validate their arguments and name the bad one.
 */
public final class ChunkPool {

    private static final ConcurrentHashMap<Integer, ChunkPool> SHARED = new ConcurrentHashMap<>();
    private static final int SHARED_SMALLEST_BYTES = 64 * 1024;
    private static final long SHARED_MAX_BYTES =
            Math.max(4L << 20, Math.min(64L << 20, Runtime.getRuntime().maxMemory() / 16));

    private final ChunkArena arena;

    private ChunkPool(int chunkSizeBytes, int maxChunks) {
        this.arena = new ChunkArena(chunkSizeBytes, maxChunks);
    }

    /**
     * A new pool of its own.
     *
     * @param chunkSizeBytes the size of each buffer, at least 1; reads from this pool emit chunks
     *     of at most this size
     * @param maxChunks the most direct buffers the pool holds at once, at least 1
     * @return an empty pool; buffers are allocated as reads need them
     * @throws IllegalArgumentException if either argument is below 1
     */
    public static ChunkPool create(int chunkSizeBytes, int maxChunks) {
        if (chunkSizeBytes <= 0) {
            throw new IllegalArgumentException("chunkSizeBytes must be positive, was " + chunkSizeBytes);
        }
        if (maxChunks <= 0) {
            throw new IllegalArgumentException("maxChunks must be positive, was " + maxChunks);
        }
        return new ChunkPool(chunkSizeBytes, maxChunks);
    }

    /**
     * The JVM's shared pool of buffers of exactly {@code chunkSizeBytes}: at most 1/16 of the
     * maximum heap in direct memory, between 4 MiB and 64 MiB. A chunk size larger than that budget
     * is not pooled: the pool holds no buffers and lends every chunk unpooled, as a heap buffer
     * that is garbage once given back (see Resources above).
     *
     * @param chunkSizeBytes the chunk size, at least 1
     * @return the same pool for the same size, every time
     * @throws IllegalArgumentException if {@code chunkSizeBytes} is below 1
     */
    public static ChunkPool shared(int chunkSizeBytes) {
        if (chunkSizeBytes <= 0) {
            throw new IllegalArgumentException("chunkSizeBytes must be positive, was " + chunkSizeBytes);
        }
        return SHARED.computeIfAbsent(
                chunkSizeBytes,
                size -> new ChunkPool(size, (int) Math.min(Integer.MAX_VALUE, SHARED_MAX_BYTES / size))); // 0: unpooled
    }

    /**
     * The shared pool that {@link ReadOptions#withLentChunks()} lends chunks of
     * {@code chunkSizeBytes} from: the one of 64 KiB buffers for chunks up to 64 KiB, else the one of
     * the next power of two, so that any number of chunk sizes share a few pools.
     *
     * @param chunkSizeBytes the chunk size of a read, at least 1
     * @return {@code shared(max(64 KiB, chunkSizeBytes rounded up to a power of two)))}
     * @throws IllegalArgumentException if {@code chunkSizeBytes} is below 1
     */
    public static ChunkPool sharedFor(int chunkSizeBytes) {
        if (chunkSizeBytes <= 0) {
            throw new IllegalArgumentException("chunkSizeBytes must be positive, was " + chunkSizeBytes);
        }
        int rounded = chunkSizeBytes <= SHARED_SMALLEST_BYTES
                ? SHARED_SMALLEST_BYTES
                : chunkSizeBytes > (1 << 30) ? Integer.MAX_VALUE - 8 : Integer.highestOneBit(chunkSizeBytes - 1) << 1;
        return shared(rounded);
    }

    /**
     * Gives a lent chunk back to the pool that lent it.
     *
     * @param chunk a chunk emitted by a read with lent chunks, or a view {@link #lend} returned, as
     *     it was handed out (its position and limit may have moved)
     * @throws NullPointerException if {@code chunk} is {@code null}
     * @throws IllegalArgumentException if {@code chunk} is not out on loan: it was given back
     *     already, no pool lent it, or it is a view derived from a lent chunk (see Slices above)
     */
    public static void giveBack(ByteBuffer chunk) {
        Objects.requireNonNull(chunk, "chunk");
        if (!Loans.giveBack(chunk)) {
            throw new IllegalArgumentException("not a lent chunk: " + chunk
                    + " was given back already, was never lent by a ChunkPool, or is a slice() or duplicate()"
                    + " of a lent chunk, which is not the loan: give back the chunk that was lent itself");
        }
    }

    /**
     * Lends a buffer you own the way a pool lends a chunk, so that whoever takes lent chunks treats
     * it as one: sluice's writers write from it as it is and give it back as soon as its bytes are
     * written, or when the write ends without writing them (cancelled, failed), and
     * {@link #giveBack} then runs {@code onGiveBack}, once. This is how a buffer that must be
     * released (a pooled or reference-counted buffer of another library) learns that a write is done
     * with it, long before the write's stage completes.
     *
     * @param buffer the bytes to lend, from its position to its limit; it is not changed, and it
     *     must stay valid until {@code onGiveBack} runs
     * @param onGiveBack run by whoever gives the returned view back, on that thread (a writer's
     *     drain): it must be fast and must not throw; it never runs if the view is given back never
     *     and becomes garbage
     * @return a new view of {@code buffer}'s content (same position and limit), out on loan: pass
     *     this object on, and give back this object
     * @throws NullPointerException if {@code buffer} or {@code onGiveBack} is {@code null}
     */
    public static ByteBuffer lend(ByteBuffer buffer, Runnable onGiveBack) {
        Objects.requireNonNull(buffer, "buffer");
        Objects.requireNonNull(onGiveBack, "onGiveBack");
        ByteBuffer view = buffer.duplicate(); // a fresh object: its identity is the loan
        Loans.lend(view, onGiveBack);
        return view;
    }

    /**
     * Whether {@code chunk} is out on loan now: a consumer that may receive lent and owned chunks
     * alike gives back those for which this is true.
     *
     * @param chunk any buffer
     * @return true if a pool lent this very object and it has not been given back; false for a
     *     slice or duplicate of a lent chunk
     * @throws NullPointerException if {@code chunk} is {@code null}
     */
    public static boolean isLent(ByteBuffer chunk) {
        return Loans.isLent(Objects.requireNonNull(chunk, "chunk"));
    }

    /**
     * Records where a lent chunk was last handled, for the leak report that names it if it is
     * never given back: {@code hint} (for example the stage that holds it) and the caller's stack.
     * Does nothing unless leak detection is on ({@code -Dsluice.leakDetection=true}), or for a
     * buffer that is not out on loan. Wrappers that count references forward their own
     * {@code touch(hint)} here.
     *
     * @param chunk any buffer
     * @param hint what to say about this touch, or {@code null}
     * @return {@code chunk}, to touch in a chain
     * @throws NullPointerException if {@code chunk} is {@code null}
     */
    public static ByteBuffer touch(ByteBuffer chunk, Object hint) {
        Loans.touch(Objects.requireNonNull(chunk, "chunk"), hint);
        return chunk;
    }

    /**
     * The size of each buffer.
     *
     * @return the size of each buffer in bytes
     */
    public int chunkSizeBytes() {
        return arena.chunkSizeBytes();
    }

    /**
     * The pool's bound.
     *
     * @return the most direct buffers this pool holds at once; 0 for a shared pool whose chunk
     *     size is larger than its budget, which lends every chunk unpooled
     */
    public int maxChunks() {
        return arena.maxChunks();
    }

    /**
     * The direct buffers alive now.
     *
     * @return direct buffers alive now, idle in the pool or out on loan; at most {@link #maxChunks()}
     */
    public int allocatedChunks() {
        return arena.allocated();
    }

    /**
     * The direct buffers ready to lend.
     *
     * @return direct buffers idle in the pool now
     */
    public int idleChunks() {
        return arena.idle();
    }

    /**
     * A count of loans.
     *
     * @return chunks lent since the pool was created, heap and unpooled ones included
     */
    public long lentChunks() {
        return arena.lent();
    }

    /**
     * A count of loans past the bound.
     *
     * @return heap chunks lent because every direct buffer was out: a sign the pool is too small
     */
    public long overflowed() {
        return arena.overflowed();
    }

    ChunkArena arena() {
        return arena;
    }

    @Override
    public String toString() {
        return "ChunkPool[chunk=" + chunkSizeBytes() + ", max=" + maxChunks() + ", allocated=" + allocatedChunks()
                + ", idle=" + idleChunks() + "]";
    }
}
