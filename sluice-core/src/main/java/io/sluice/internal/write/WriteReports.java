package io.sluice.internal.write;

import io.sluice.WriteListener;
import io.sluice.WriteSnapshot;
import io.sluice.demand.DemandStrategy;

import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What a write tells the outside: its {@link WriteListener} after each pass and on each larger
 * item, and its Flight Recorder events ({@link WriteRecording}). Larger items are noted by
 * {@code onNext} and reported by the drain, so the listener is only ever called from the drain.
 */
final class WriteReports {

    private final WriteLedger ledger;
    private final WriteListener listener; // null: none
    private final WriteRecording recording; // ended once, on the drain or the finisher
    private final ConcurrentLinkedQueue<long[]> largerItems =
            new ConcurrentLinkedQueue<>(); // onNext -> drain: {item, previous largest, outstanding}
    private long peakQueuedBytes; // drain-confined (the finisher takes the drain's role: W9)

    WriteReports(WriteLedger ledger, WriteListener listener, String target, DemandStrategy strategy) {
        this.ledger = ledger;
        this.listener = listener;
        this.recording = WriteRecording.start(target, strategy);
    }

    /** From {@code onNext}: an item outgrew every item before it while demand for smaller ones was out. */
    void largerItem(long itemBytes, long previousLargestBytes, long outstandingItems) {
        largerItems.offer(new long[] {itemBytes, previousLargestBytes, outstandingItems});
    }

    /** From the drain, before it takes a batch: the queued bytes as it sees them. */
    void sawQueued() {
        peakQueuedBytes = Math.max(peakQueuedBytes, ledger.queuedBytes());
    }

    /**
     * From the drain after a pass's request: reports larger items and the pass; what the listener
     * throws goes to {@code failure} (first wins) and ends its calls for this pass.
     */
    void pass(long issued, AtomicReference<Throwable> failure) {
        for (long[] larger; (larger = largerItems.poll()) != null; ) {
            recording.largerItem(larger[0], larger[1], larger[2]);
            if (listener != null && failure.get() == null) {
                try {
                    listener.onLargerItem(larger[0], larger[1], larger[2]);
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            }
        }
        if (listener == null || failure.get() != null) {
            return;
        }
        try {
            listener.onPass(new WriteSnapshot(
                    ledger.requestedItems(),
                    ledger.receivedItems(),
                    ledger.writtenItems(),
                    ledger.queuedBytes(),
                    inTarget(),
                    issued,
                    ledger.requestCalls(),
                    ledger.controller().windowItems(),
                    ledger.controller().describe()));
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
        }
    }

    /**
     * Bytes the target has: written, less what the sink still holds back in its staging buffer, so
     * that what a listener or a recording is told is written is in the target when it is told
     * (a process killed after it still leaves those bytes in the file).
     */
    private long inTarget() {
        return ledger.writtenBytes() - ledger.stagedBytes();
    }

    /** Once, when the write ends: {@code cause} null for success. */
    void end(Throwable cause) {
        String outcome =
                cause == null ? "completed" : cause instanceof CancellationException ? "cancelled" : "failed: " + cause;
        recording.end(inTarget(), ledger.writtenItems(), ledger.requestCalls(), peakQueuedBytes, outcome);
    }
}
