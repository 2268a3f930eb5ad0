package io.sluice.internal.write;

import io.sluice.demand.Demand;
import io.sluice.demand.DemandController;
import io.sluice.demand.DemandState;
import io.sluice.demand.DemandStrategy;

import java.util.concurrent.atomic.AtomicLongFieldUpdater;

/**
 * The writer's books and rules for one write, with no I/O and no clock: the counts (requested,
 * received, written, queued bytes, largest item), the §1.1 check on each item, the byte cap, the
 * call to the {@link DemandController}, the never-stall rule, and the limits on one batch and one
 * pass. sluice's writer keeps one per write and does only the I/O and the signalling around it;
 * a model of the writer can drive a ledger of its own on a simulated clock and so runs the very
 * rules the writer runs.
 *
 * <p><b>Backpressure:</b> the byte cap: demand is forwarded only while {@code queuedBytes + (outstanding + n) * L <=
 * maxQueuedBytes}, where {@code L} is the larger of the largest item seen and the declared largest
 * item; one item when nothing is queued or outstanding. Until the next request at most
 * {@code outstanding + n} items arrive, each at most the write's largest item {@code M}, so the
 * held bytes never exceed {@code max(M, C + (O + n) * (M - L))}: {@code max(C, M)} when no item
 * outgrows the assumed size.
 *
 * <p><b>Threading:</b> the receiving methods ({@link #mayReceive}, {@link #receive}) are called by
 * one thread at a time (the upstream's {@code onNext}, serial by §1.3); all others by the one
 * thread that drives the write at a time (the writer's drain). The counts the other side reads are
 * volatile, each item's bytes are added before its count and the drain reads the count before the
 * bytes, so the drain never sees an item that is neither outstanding nor queued.
 *
 * <p><b>Errors:</b> {@link #nextRequest()} throws what the controller throws, and
 * {@link IllegalStateException} when the controller returns a negative request.
 */
public final class WriteLedger implements DemandState {

    /** The most items one gathering write takes. */
    public static final int MAX_BATCH_ITEMS = 1024;
    /** The most bytes one gathering write takes; at least one item is always taken. */
    public static final long MAX_BATCH_BYTES = 8L * 1024 * 1024;
    /** The bytes one pass writes before it yields its thread, so concurrent writes share it. */
    public static final long YIELD_AFTER_BYTES = 16L * 1024 * 1024;
    /** The items (empty ones too) one pass handles before it yields its thread. */
    public static final long YIELD_AFTER_ITEMS = 8L * MAX_BATCH_ITEMS;

    private final DemandController controller;
    private final long maxQueuedBytes;
    private final long declaredItemBytes; // 0: no declared largest item
    private final boolean capped; // false only for Demand.unbounded()

    private volatile long requested; // written by the driver before request(n), read by the receiver (§1.1)
    private volatile long received; // written by the receiver only, after the item's bytes
    private volatile long largestItemBytes; // written by the receiver only
    private volatile long queuedBytes; // receiver adds, driver subtracts: updated through QUEUED
    private volatile long stagedBytes; // driver writes: bytes its sink took but holds back; counted in the cap only
    private long written; // driver only
    private long writtenBytes; // driver only
    private long requestCalls; // driver only

    private static final AtomicLongFieldUpdater<WriteLedger> QUEUED =
            AtomicLongFieldUpdater.newUpdater(WriteLedger.class, "queuedBytes");

    /**
     * A ledger for one write.
     *
     * @param demand the write's strategy: its controller is created here
     * @param maxQueuedBytes the byte cap, positive
     * @param declaredItemBytes the largest item the upstream promises, or 0 when none is declared
     */
    public WriteLedger(DemandStrategy demand, long maxQueuedBytes, long declaredItemBytes) {
        if (maxQueuedBytes <= 0 || declaredItemBytes < 0) {
            throw new IllegalArgumentException("maxQueuedBytes must be positive and declaredItemBytes not"
                    + " negative: " + maxQueuedBytes + ", " + declaredItemBytes);
        }
        this.controller = demand.newController();
        this.maxQueuedBytes = maxQueuedBytes;
        this.declaredItemBytes = declaredItemBytes;
        this.capped = demand != Demand.unbounded();
    }

    /**
     * The write's controller, for its window and description.
     *
     * @return the controller this ledger created from the strategy
     */
    public DemandController controller() {
        return controller;
    }

    /**
     * The largest item the upstream promised.
     *
     * @return its size in bytes, or 0 when none was declared
     */
    public long declaredItemBytes() {
        return declaredItemBytes;
    }

    // ---- receiving side: one thread at a time (§1.3) ----

    /**
     * §1.1: whether one more item is within the total requested so far.
     *
     * @return true while fewer items were received than requested
     */
    public boolean mayReceive() {
        return received < requested;
    }

    /**
     * Whether an item breaks the declared largest item size.
     *
     * @param bytes the item's size
     * @return true when a size was declared and {@code bytes} is larger
     */
    public boolean exceedsDeclared(long bytes) {
        return declaredItemBytes > 0 && bytes > declaredItemBytes;
    }

    /**
     * Why the next item, of {@code bytes}, must be refused: it is beyond the requested total (§1.1),
     * or larger than the declared largest item.
     *
     * @param bytes the item's size
     * @param what the operation, for the message ("write to /tmp/a")
     * @return an {@link IllegalStateException} naming §1.1, an {@link IllegalArgumentException}
     *     naming the declared size, or null when the item may be received
     */
    public RuntimeException refusal(long bytes, String what) {
        long count = received + 1;
        if (!mayReceive()) {
            return new IllegalStateException("§1.1: upstream sent item #" + count + " but only " + requested
                    + " were requested; " + what + " aborted");
        }
        if (exceedsDeclared(bytes)) {
            return new IllegalArgumentException("item #" + count + " has " + bytes + " bytes, more than the "
                    + declaredItemBytes + " declared by WriteOptions.withMaxItemBytes; " + what + " aborted");
        }
        return null;
    }

    /**
     * Counts an item the writer has accepted: its bytes first, then its count.
     *
     * @param bytes the item's size
     * @return the items still outstanding that were granted for smaller items, when this item is
     *     larger than every item before it and than the declared size under a cap (the cap then
     *     holds more than it assumed); 0 otherwise
     */
    public long receive(long bytes) {
        long count = received + 1;
        long largest = largestItemBytes;
        long grantedForSmaller = 0;
        if (bytes > largest) {
            largestItemBytes = bytes;
            long outstanding = requested - count;
            if (largest > 0 && outstanding > 0 && capped && bytes > declaredItemBytes) {
                grantedForSmaller = outstanding;
            }
        }
        QUEUED.addAndGet(this, bytes);
        received = count;
        return grantedForSmaller;
    }

    // ---- driving side: the writer's drain ----

    /**
     * Asks the controller and applies the writer's rules: the byte cap for every strategy but
     * {@link Demand#unbounded()}, and never stall (one item when nothing is queued or outstanding,
     * whatever the controller says).
     *
     * @return the items to request now, 0 for none; to be recorded with {@link #requested(long)}
     *     before the upstream's {@code request(n)}
     */
    public long nextRequest() {
        long wanted = controller.nextRequest(this);
        if (wanted < 0) {
            throw new IllegalStateException("demand controller " + controller.describe() + " returned " + wanted);
        }
        long n = capped ? Math.min(wanted, requestLimit()) : wanted;
        if (n == 0 && outstandingItems() == 0 && queuedItems() == 0 && stagedBytes == 0) {
            n = 1; // never stall; staged bytes are written first (the drain flushes and asks again)
        }
        return n;
    }

    /**
     * Records a request before it is made: the total saturates at {@code Long.MAX_VALUE}.
     *
     * @param n the items about to be requested
     */
    public void requested(long n) {
        long total = requested + n;
        requested = total < 0 ? Long.MAX_VALUE : total;
        requestCalls++;
    }

    /**
     * Records a completed gathering write.
     *
     * @param items the queued items it wrote
     * @param bytes their size in all
     */
    public void written(long items, long bytes) {
        written += items;
        writtenBytes += bytes;
        QUEUED.addAndGet(this, -bytes);
    }

    /**
     * Records the bytes the sink holds back after taking them (a partly filled staging buffer):
     * written as far as the queue is concerned, but still held, so they count against the byte cap
     * in {@link #requestLimit()} until the sink writes them. {@link #queuedBytes()} leaves them out:
     * strategies read it as the target's backlog, and a staging buffer's fill says how far the
     * buffer is from a write, not how far the target lags.
     *
     * @param bytes what the sink holds back now
     */
    public void staged(long bytes) {
        stagedBytes = bytes;
    }

    /**
     * Bytes the sink holds back now, as last recorded by {@link #staged(long)}.
     *
     * @return the staged bytes: taken from the queue, counted in {@link #writtenBytes()}, not yet in the target
     */
    public long stagedBytes() {
        return stagedBytes;
    }

    /** Forgets the queued items of a write that ended without writing them. */
    public void dropQueued() {
        queuedBytes = 0;
    }

    /**
     * The most items the next batch may take.
     *
     * @param itemsThisPass the items the current pass has handled so far
     * @return at most {@link #MAX_BATCH_ITEMS}, and no more than the pass has left before it yields
     */
    public static int batchItems(long itemsThisPass) {
        return (int) Math.max(0, Math.min(MAX_BATCH_ITEMS, YIELD_AFTER_ITEMS - itemsThisPass));
    }

    /**
     * Whether a pass that has handled this much yields its thread now.
     *
     * @param bytesThisPass the bytes it wrote
     * @param itemsThisPass the items it handled, empty ones too
     * @return true once either limit is reached
     */
    public static boolean passDone(long bytesThisPass, long itemsThisPass) {
        return bytesThisPass >= YIELD_AFTER_BYTES || itemsThisPass >= YIELD_AFTER_ITEMS;
    }

    // ---- the counts: DemandState ----

    @Override
    public long requestedItems() {
        return requested;
    }

    @Override
    public long receivedItems() {
        return received;
    }

    @Override
    public long writtenItems() {
        return written;
    }

    /**
     * Bytes taken from the queue and handed to the sink so far, staged ones included.
     *
     * @return the total size of the items written
     */
    public long writtenBytes() {
        return writtenBytes;
    }

    /**
     * Requests made so far.
     *
     * @return the number of {@code request(n)} calls recorded
     */
    public long requestCalls() {
        return requestCalls;
    }

    @Override
    public long queuedBytes() {
        return queuedBytes; // staged bytes are left out: see staged(long)
    }

    @Override
    public long largestItemBytes() {
        return largestItemBytes;
    }

    @Override
    public long requestLimit() {
        long outstanding = outstandingItems(); // the count before the bytes
        long queuedItems = queuedItems();
        long assumed = assumedItemBytes();
        long held = queuedBytes + stagedBytes; // bytes received and not yet in the target
        boolean idle = outstanding == 0 && queuedItems == 0 && stagedBytes == 0;
        if (assumed == 0) {
            return idle ? 1 : 0;
        }
        long room = (maxQueuedBytes - held) / assumed - outstanding;
        return room > 0 ? room : idle ? 1 : 0;
    }

    @Override
    public long capItems() {
        long assumed = assumedItemBytes();
        return assumed == 0 ? Long.MAX_VALUE : Math.max(1, maxQueuedBytes / assumed);
    }

    private long assumedItemBytes() {
        return Math.max(largestItemBytes, declaredItemBytes);
    }
}
