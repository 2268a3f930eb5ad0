package io.sluice.internal.write;

import io.sluice.internal.Loans;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The items a write has received and not yet written, in arrival order (W8): those {@code onNext}
 * sends from its own thread go through a concurrent queue and signal the drain; those a
 * synchronous upstream emits inside the drain's own {@code request(n)} skip both and go, only
 * while the queue is empty, to drain-confined storage taken first, so order is kept. There, a
 * small heap item is copied at once into the write's staging buffer (a sink's
 * {@link WriteSink#staging()} pool), while it is still in the CPU's cache, and no reference to it
 * is kept: the staged run is written as one buffer ahead of everything else. An item that does not
 * fit, a direct or lent one, and every item after it in that request go to a deque, as they are
 * (lent, W10) or duplicated. {@code requestingThread} only ever holds null or the drain's current
 * thread, so it equals the caller's thread exactly when the caller is the drain inside
 * {@code request(n)}.
 */
final class WriteQueue {

    /**
     * The batch array's first length: enough for a small write's batches, so a write of a few items
     * does not allocate the {@link WriteLedger#MAX_BATCH_ITEMS} slots a long stream of small items
     * fills; it doubles when a batch needs more, up to that.
     */
    static final int FIRST_BATCH_SLOTS = 16;

    private final ConcurrentLinkedQueue<ByteBuffer> queue = new ConcurrentLinkedQueue<>(); // onNext -> drain
    private final ArrayDeque<ByteBuffer> emittedInRequest = new ArrayDeque<>();            // drain-confined
    private final StagingBuffers stagingPool;        // where staged runs come from; null: items are never staged
    private volatile Thread requestingThread;        // written by the drain around request(n), read by onNext
    private volatile boolean lentSeen;               // onNext -> drain: a lent chunk was queued (W10)
    private ByteBuffer staged;                       // drain-confined: copies of items emitted in request(n), oldest first; null: none
    private int stagedItems;                         // drain-confined: the items copied into staged
    private int stagingItemLimit;                    // drain-confined: the most items a staged run may hold, set by enterRequest
    private ByteBuffer[] batch = new ByteBuffer[FIRST_BATCH_SLOTS];   // drain-confined: grows to the largest batch taken
    private int batchCount;                          // drain-confined: buffers in batch
    private long batchBytes;                         // drain-confined
    private ByteBuffer batchStaging;                 // drain-confined: the staged run in batch, back to its pool on release

    /** @param stagingPool where to stage small heap items emitted inside {@code request(n)}; null: never */
    WriteQueue(StagingBuffers stagingPool) {
        this.stagingPool = stagingPool;
    }

    /**
     * From {@code onNext}, after the item was counted: queues the upstream's {@code item} itself if
     * lent, else a duplicate (the caller's position and limit stay untouched), or stages a copy.
     *
     * @return whether the drain must be signalled: false for an item emitted inside its own request
     */
    boolean offer(ByteBuffer item, boolean lent) {
        if (lent) {
            lentSeen = true;                         // before the offer: the drain that polls it gives it back
        }
        if (requestingThread == Thread.currentThread() && queue.isEmpty()) {
            if (lent || !emittedInRequest.isEmpty() || !stage(item)) {
                emittedInRequest.add(lent ? item : item.duplicate());
            }
            return false;
        }
        queue.offer(lent ? item : item.duplicate());
        return true;
    }

    /** On the drain, inside its request: copies a heap item into the staged run if it fits; false if not. */
    private boolean stage(ByteBuffer item) {
        if (stagingPool == null || item.isDirect() || stagedItems >= stagingItemLimit) {
            return false;
        }
        int bytes = item.remaining();
        if (staged == null) {
            if (bytes > StagingBuffers.STAGING_BYTES) {
                return false;
            }
            staged = stagingPool.take();
        } else if (bytes > staged.remaining()) {
            return false;
        }
        int at = staged.position();
        staged.put(at, item, item.position(), bytes).position(at + bytes);   // absolute: item untouched
        stagedItems++;
        return true;
    }

    /**
     * From the drain, just before its {@code request(n)}.
     *
     * @param itemsThisPass the items the pass has handled so far: a staged run holds no more items
     *     than the next batch may take ({@link WriteLedger#batchItems}), so W7 holds
     */
    void enterRequest(long itemsThisPass) {
        stagingItemLimit = WriteLedger.batchItems(itemsThisPass);
        requestingThread = Thread.currentThread();
    }

    /** From the drain, once its {@code request(n)} returned or threw. */
    void leaveRequest() {
        requestingThread = null;
    }

    /**
     * From the drain: takes the next batch for one gathering write, within the ledger's limits
     * after {@code itemsThisPass} items in this pass: the staged run first, if any, then queued
     * items.
     *
     * @return the batch's item count (a staged run counts as the items copied into it), 0 when
     *     nothing is queued
     */
    int takeBatch(long itemsThisPass) {
        int limit = WriteLedger.batchItems(itemsThisPass);
        int items = 0;
        batchCount = 0;
        batchBytes = 0;
        if (staged != null) {                        // never more items than limit: enterRequest set the same limit
            batchStaging = staged;
            batch[batchCount++] = staged.flip();
            batchBytes = staged.remaining();
            items = stagedItems;
            staged = null;
            stagedItems = 0;
        }
        while (items < limit && batchBytes < WriteLedger.MAX_BATCH_BYTES) {
            ByteBuffer item = poll();
            if (item == null) {
                break;
            }
            if (batchCount == batch.length) {        // never past MAX_BATCH_ITEMS: batchCount <= items < limit
                batch = Arrays.copyOf(batch, Math.min(2 * batch.length, WriteLedger.MAX_BATCH_ITEMS));
            }
            batch[batchCount++] = item;
            batchBytes += item.remaining();
            items++;
        }
        return items;
    }

    /** From the drain: the batch taken last, in {@code [0, batchSize())}. */
    ByteBuffer[] batch() {
        return batch;
    }

    /** From the drain: the buffers in the batch taken last (a staged run is one). */
    int batchSize() {
        return batchCount;
    }

    /** From the drain: the bytes of the batch taken last. */
    long batchBytes() {
        return batchBytes;
    }

    private ByteBuffer poll() {
        return emittedInRequest.isEmpty() ? queue.poll() : emittedInRequest.poll();
    }

    /** From the drain. */
    boolean isEmpty() {
        return staged == null && emittedInRequest.isEmpty() && queue.isEmpty();
    }

    /** From the drain, once the sink is done with the batch: drops its references, giving back lent chunks (W10). */
    void releaseBatch() {
        if (lentSeen) {
            for (int i = 0; i < batchCount; i++) {
                Loans.giveBack(batch[i]);
            }
        }
        Arrays.fill(batch, 0, batchCount, null);
        batchCount = 0;
        if (batchStaging != null) {
            stagingPool.give(batchStaging);
            batchStaging = null;
        }
    }

    /**
     * From the drain, once the write ended: drops what it will never write, giving back lent chunks
     * (W10). Item by item, reading {@code lentSeen} after each poll: an {@code onNext} that queues
     * its first lent chunk during this call set the flag before its offer, so the poll that finds
     * the chunk sees the flag too; one queued after the last poll signals the pass that drops it.
     */
    void dropAll() {
        if (staged != null) {
            stagingPool.give(staged);
            staged = null;
            stagedItems = 0;
        }
        for (ByteBuffer item; (item = poll()) != null; ) {
            if (lentSeen) {
                Loans.giveBack(item);
            }
        }
    }
}
