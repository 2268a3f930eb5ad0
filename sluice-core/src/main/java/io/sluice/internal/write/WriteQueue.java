package io.sluice.internal.write;

import io.sluice.internal.Loans;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The items a write has received and not yet written, in arrival order (W8): those {@code onNext}
 * sends from its own thread go through a concurrent queue and signal the drain; those a
 * synchronous upstream emits inside the drain's own {@code request(n)} skip both, into a
 * drain-confined deque, taken first, and only while the queue is empty, so order is kept. Each is
 * queued as it came if lent (W10), else as a duplicate, so the upstream's position and limit stay
 * untouched; its bytes are copied once, by the sink, when its batch is written.
 * {@code requestingThread} only ever holds null or the drain's current thread, so it equals the
 * caller's thread exactly when the caller is the drain inside {@code request(n)}.
 */
final class WriteQueue {

    /**
     * The batch array's first length: enough for a small write's batches, so a write of a few items
     * does not allocate the {@link WriteLedger#MAX_BATCH_ITEMS} slots a long stream of small items
     * fills; it doubles when a batch needs more, up to that.
     */
    static final int FIRST_BATCH_SLOTS = 16;

    private final ConcurrentLinkedQueue<ByteBuffer> queue = new ConcurrentLinkedQueue<>(); // onNext -> drain
    private final ArrayDeque<ByteBuffer> emittedInRequest = new ArrayDeque<>(); // drain-confined
    private volatile Thread requestingThread; // written by the drain around request(n), read by onNext
    private volatile boolean lentSeen; // onNext -> drain: a lent chunk was queued (W10)
    private ByteBuffer[] batch = new ByteBuffer[FIRST_BATCH_SLOTS]; // drain-confined: grows to the largest batch taken
    private int batchCount; // drain-confined: items in batch
    private long batchBytes; // drain-confined

    /**
     * From {@code onNext}, after the item was counted: queues the upstream's {@code item} itself if
     * lent, else a duplicate.
     *
     * @return whether the drain must be signalled: false for an item emitted inside its own request
     */
    boolean offer(ByteBuffer item, boolean lent) {
        if (lent) {
            lentSeen = true; // before the offer: the drain that polls it gives it back
        }
        ByteBuffer queued = lent ? item : item.duplicate();
        if (requestingThread == Thread.currentThread() && queue.isEmpty()) {
            emittedInRequest.add(queued);
            return false;
        }
        queue.offer(queued);
        return true;
    }

    /** From the drain, just before its {@code request(n)}. */
    void enterRequest() {
        requestingThread = Thread.currentThread();
    }

    /** From the drain, once its {@code request(n)} returned or threw. */
    void leaveRequest() {
        requestingThread = null;
    }

    /**
     * From the drain: takes the next batch for one gathering write, within the ledger's limits
     * after {@code itemsThisPass} items in this pass.
     *
     * @return the batch's item count, 0 when nothing is queued
     */
    int takeBatch(long itemsThisPass) {
        int limit = WriteLedger.batchItems(itemsThisPass);
        batchCount = 0;
        batchBytes = 0;
        while (batchCount < limit && batchBytes < WriteLedger.MAX_BATCH_BYTES) {
            ByteBuffer item = poll();
            if (item == null) {
                break;
            }
            if (batchCount == batch.length) { // never past MAX_BATCH_ITEMS: batchCount < limit
                batch = Arrays.copyOf(batch, Math.min(2 * batch.length, WriteLedger.MAX_BATCH_ITEMS));
            }
            batch[batchCount++] = item;
            batchBytes += item.remaining();
        }
        return batchCount;
    }

    /** From the drain: the batch taken last, in {@code [0, count)}. */
    ByteBuffer[] batch() {
        return batch;
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
        return emittedInRequest.isEmpty() && queue.isEmpty();
    }

    /**
     * From the drain: whether a lent chunk was ever queued, read after the batch was taken (so
     * true if the batch holds one).
     */
    boolean lentSeen() {
        return lentSeen;
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
    }

    /**
     * From the drain, once the write ended: drops what it will never write, giving back lent chunks
     * (W10). Item by item, reading {@code lentSeen} after each poll: an {@code onNext} that queues
     * its first lent chunk during this call set the flag before its offer, so the poll that finds
     * the chunk sees the flag too; one queued after the last poll signals the pass that drops it.
     */
    void dropAll() {
        for (ByteBuffer item; (item = poll()) != null; ) {
            if (lentSeen) {
                Loans.giveBack(item);
            }
        }
    }
}
