package io.sluice.internal.write;

import io.sluice.internal.Loans;
import io.sluice.internal.OperationFuture;
import io.sluice.internal.SerialDrain;
import io.sluice.WriteListener;
import io.sluice.WriteOptions;
import io.sluice.WriteSnapshot;
import io.sluice.demand.WriteLedger;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Writes an upstream publisher's buffers to a {@link WriteSink}: {@code onNext} only enqueues; the
 * drain writes what is queued with gathering writes and asks the demand controller what to
 * request next.
 *
 * <p>Invariants (tests name them):
 * <ul>
 *   <li>W1 (§2.7): every {@code request} and {@code cancel} on the upstream subscription is made
 *       from the drain, so never concurrently, and even the first request is issued there.</li>
 *   <li>W2: {@code onNext} never blocks and never does I/O: it enqueues and signals the drain.</li>
 *   <li>W3 (window): for a bounded controller, queued plus outstanding items only grow by a
 *       request, and the controller requests only while the result stays within its window.</li>
 *   <li>W4 (bytes): demand is forwarded only while {@code queuedBytes + (outstanding + n) * L <=
 *       maxQueuedBytes}, where {@code L} is the larger of the largest item seen and the declared
 *       {@link WriteOptions#maxItemBytes()}; one item when nothing is queued or outstanding (so
 *       before the first item one item is requested, unless a declared size lets more in). Every
 *       strategy but {@code Demand.unbounded()} is capped. {@link WriteLedger} keeps the counts and
 *       applies this rule and states the bound on held bytes it gives for any item sizes.</li>
 *   <li>W5 (§1.1): an item beyond the requested total fails the write naming §1.1; it is dropped,
 *       never queued.</li>
 *   <li>W6: the stage completes exactly once; every path closes the sink exactly once and cancels a
 *       live upstream. The writer's own completion comes after the sink is closed (and forced, with
 *       sync); an outside completion comes after {@link WriteSink#abort()} returned, which closes
 *       every sink but a user's non-interruptible channel with a write in flight.</li>
 *   <li>W7: one pass writes at most {@link WriteLedger#YIELD_AFTER_BYTES} and handles at most
 *       {@link WriteLedger#YIELD_AFTER_ITEMS} items (empty ones too) before yielding the executor, so
 *       concurrent writes share it fairly.</li>
 *   <li>W8: {@code onNext} publishes an item's bytes ({@code queuedBytes}) before its count
 *       ({@code received}), and the drain reads the count before the bytes, so the drain never sees
 *       an item neither outstanding nor queued. An item a synchronous upstream emits inside our own
 *       {@code request(n)} (so on the drain's thread, while the drain runs) skips the concurrent
 *       queue and the signal: it goes to a drain-confined deque, and only while the queue is
 *       empty, so items are written in the order they arrived. {@code requestingThread} is
 *       volatile and only ever holds null or the drain's current thread, so it equals the caller's
 *       thread exactly when the caller is the drain inside {@code request(n)}. If items arrived
 *       during that call, the controller is asked once more.</li>
 *   <li>W9: the end of a write (the final force, the commit, the close) may run on a separate
 *       {@code finisher} executor: a sync write on the small shared file pool then waits for its
 *       {@code fsync} on the blocking pool, so a slow device cannot hold the file pool's threads
 *       and starve every other file operation. The write is {@code terminated} before the
 *       hand-off, so no later pass touches it; the finisher owns the sink and the stage from
 *       then on (the hand-off through {@link Executor#execute} publishes the drain's state).</li>
 *   <li>W10: a chunk lent by a {@code ChunkPool} ({@link Loans}) is written from as it is, not from a
 *       duplicate, and given back as soon as the sink is done with it: after the gathering write
 *       that took it returned (written, stopped or failed), or when the write ends without writing
 *       it (queued at a cancel or failure, refused by W5, late after the end). The sink is done
 *       when its call returns: every sink reads a buffer only inside its own call.</li>
 * </ul>
 */
public final class ChannelWriteSubscriber implements Subscriber<ByteBuffer> {

    private final WriteSink sink;
    private final WriteLedger ledger;                    // counts and demand rules: onNext side serial (§1.3), the rest drain
    private final boolean sync;
    private final WriteListener listener;
    private final OperationFuture<Long> result = new OperationFuture<>();
    private final SerialDrain drain;
    private final Executor finisher;                     // null: finish on the drain (W9)
    private final String target;

    private final ConcurrentLinkedQueue<ByteBuffer> queue = new ConcurrentLinkedQueue<>(); // onNext -> drain
    private final ArrayDeque<ByteBuffer> emittedInRequest = new ArrayDeque<>();            // drain-confined (W8)
    private volatile Thread requestingThread;            // drain -> onNext: the drain's thread while inside request(n), else null (W8)
    private final ConcurrentLinkedQueue<long[]> largerItems = new ConcurrentLinkedQueue<>(); // onNext -> drain: {item, previous largest, outstanding}
    private final AtomicReference<Throwable> failure = new AtomicReference<>();            // any thread -> drain; first wins
    private volatile Subscription upstream;              // onSubscribe -> drain
    private volatile boolean upstreamCompleted;          // onComplete -> drain
    private volatile boolean aborted;                    // stage completed from outside -> drain
    private volatile boolean terminated;                 // drain -> onNext (drop late items)
    private volatile boolean lentSeen;                   // onNext -> drain: a lent chunk was queued (W10)

    private long peakQueuedBytes;                        // drain-confined; as seen by the drain
    private final WriteRecording recording;            // ended once, on the drain or the finisher
    private boolean opened;                              // drain-confined
    private boolean upstreamCancelled;                   // drain-confined
    private final ByteBuffer[] batch = new ByteBuffer[WriteLedger.MAX_BATCH_ITEMS];   // drain-confined

    public ChannelWriteSubscriber(WriteSink sink, WriteOptions options, Executor executor, String target) {
        this(sink, options, executor, null, target);
    }

    /**
     * @param finisher where a sync write's final force, commit and close run (W9); {@code null}:
     *     on the drain, like everything else
     */
    public ChannelWriteSubscriber(WriteSink sink, WriteOptions options, Executor executor, Executor finisher,
                                  String target) {
        this.sink = sink;
        this.finisher = finisher;
        this.ledger = new WriteLedger(options.demand(), options.maxQueuedBytes(), options.maxItemBytes());
        this.sync = options.sync();
        this.listener = options.listener();
        this.target = target;
        this.drain = new SerialDrain(executor, this::pass, this::rejected, false);
        this.recording = WriteRecording.start(target, options.demand().toString());
        result.onAbort(() -> {                    // on the completing thread, before the stage completes
            aborted = true;                       // first: a pass that finds the sink closed knows why
            try {
                sink.abort();                     // the target is closed before any dependent runs
            } catch (RuntimeException e) {
                // a user's channel failed to close; the drain still closes it and ends the write
            }
            drain.signal();                       // the drain cancels upstream (W1) and ends the write
        });
    }

    /** The stage users get: the byte count, once written, forced (with sync) and closed. */
    public OperationFuture<Long> result() {
        return result;
    }

    // ---- Subscriber side: any (serial) upstream thread ----

    @Override
    public void onSubscribe(Subscription subscription) {
        if (subscription == null) {
            throw violated2_13("onSubscribe subscription");
        }
        if (upstream != null) {
            subscription.cancel();                // §2.5: a second subscription is cancelled
            return;
        }
        upstream = subscription;
        drain.signal();                           // W1: the first request comes from the drain
    }

    @Override
    public void onNext(ByteBuffer item) {
        if (item == null) {
            throw violated2_13("onNext item");
        }
        if (terminated || failure.get() != null) {
            Loans.giveBack(item);                 // W10, if lent
            return;                               // §2.8: late items after cancel are dropped
        }
        if (!ledger.mayReceive()) {               // W5
            Loans.giveBack(item);                 // W10, if lent
            fail(new IllegalStateException("§1.1: upstream sent item #" + (ledger.receivedItems() + 1)
                    + " but only " + ledger.requestedItems() + " were requested; write to " + target + " aborted"));
            return;
        }
        boolean lent = Loans.isLent(item);
        if (lent) {
            lentSeen = true;                      // W10: before the offer, so the drain that polls it gives it back
        }
        ByteBuffer own = lent ? item : item.duplicate();   // we read position..limit; an owned buffer is untouched
        long size = own.remaining();
        if (ledger.exceedsDeclared(size)) {
            Loans.giveBack(own);                  // W10, if lent
            fail(new IllegalArgumentException("item #" + (ledger.receivedItems() + 1) + " has " + size
                    + " bytes, more than the " + ledger.declaredItemBytes()
                    + " declared by WriteOptions.withMaxItemBytes; write to " + target + " aborted"));
            return;
        }
        long largest = ledger.largestItemBytes();
        long grantedForSmaller = ledger.receive(size);   // W8: bytes before the count, both before the offer
        if (grantedForSmaller > 0) {
            largerItems.offer(new long[] {size, largest, grantedForSmaller});
        }
        if (requestingThread == Thread.currentThread() && queue.isEmpty()) {
            emittedInRequest.add(own);            // W8: we are the drain, inside its request(n)
            return;
        }
        queue.offer(own);
        drain.signal();                           // W2
    }

    @Override
    public void onError(Throwable error) {
        if (error == null) {
            upstreamCompleted = true;             // the upstream meant to end: nothing to cancel
            throw violated2_13("onError throwable");
        }
        failure.compareAndSet(null, error);       // before the flag: a drain that sees it sees the error
        upstreamCompleted = true;                 // terminal: nothing to cancel
        drain.signal();
    }

    /**
     * §2.13: a null signal is answered with a {@link NullPointerException} to the caller, and the
     * write fails with one too (its file closed, the subscription treated as cancelled).
     */
    private NullPointerException violated2_13(String what) {
        fail(new NullPointerException("§2.13: " + what + " must not be null; write to " + target + " failed"));
        return new NullPointerException("§2.13: " + what + " must not be null");
    }

    private void fail(Throwable error) {
        failure.compareAndSet(null, error);
        drain.signal();
    }

    @Override
    public void onComplete() {
        upstreamCompleted = true;
        drain.signal();
    }

    // ---- the drain ----

    private boolean pass() {
        if (terminated) {
            cancelLateUpstream();
            return false;
        }
        if (stopRequested()) {
            return false;
        }
        if (upstream == null) {
            return false;                         // waiting for onSubscribe
        }
        if (!opened) {
            try {
                sink.open(() -> aborted || failure.get() != null);
                opened = true;
            } catch (Throwable t) {
                terminate(t);
                return false;
            }
            issueDemand();
            if (stopRequested()) {
                return false;
            }
        }
        long bytesThisPass = 0;
        long itemsThisPass = 0;
        for (;;) {
            int count = 0;
            long batchBytes = 0;
            peakQueuedBytes = Math.max(peakQueuedBytes, ledger.queuedBytes());
            int batchLimit = WriteLedger.batchItems(itemsThisPass);
            while (count < batchLimit && batchBytes < WriteLedger.MAX_BATCH_BYTES) {
                ByteBuffer item = emittedInRequest.isEmpty() ? queue.poll() : emittedInRequest.poll();
                if (item == null) {
                    break;
                }
                batch[count++] = item;
                batchBytes += item.remaining();
            }
            if (count > 0) {
                if (stopRequested()) {            // an outside completion since the last check
                    releaseBatch(count);
                    return false;
                }
                try {
                    boolean complete = sink.writeFully(batch, 0, count);
                    releaseBatch(count);
                    if (!complete) {
                        stopRequested();
                        return false;
                    }
                } catch (Throwable t) {
                    releaseBatch(count);
                    terminate(aborted ? cancellation() : t);   // an abort closes the sink under the write
                    return false;
                }
                ledger.written(count, batchBytes);
                bytesThisPass += batchBytes;
                itemsThisPass += count;
            }
            if (stopRequested()) {
                return false;
            }
            long issued = issueDemand();
            report(issued);
            if (stopRequested()) {                // the controller, request() or the listener threw
                return false;
            }
            if (emittedInRequest.isEmpty() && queue.isEmpty()) {
                if (upstreamCompleted && failure.get() == null && ledger.queuedItems() == 0) {
                    complete();
                    return false;
                }
                if (issued == 0) {
                    return false;                 // wait for the next signal
                }
            }
            if (WriteLedger.passDone(bytesThisPass, itemsThisPass)) {
                return true;                      // W7
            }
        }
    }

    /** Handles failure and abort; returns true if the write has ended. */
    private boolean stopRequested() {
        if (terminated) {
            return true;
        }
        Throwable error = failure.get();
        if (error != null) {
            terminate(error);
            return true;
        }
        if (aborted) {
            terminate(cancellation());
            return true;
        }
        return false;
    }

    private CancellationException cancellation() {
        return new CancellationException("write to " + target + " was cancelled");
    }

    /**
     * Asks the controller and forwards its demand within the byte cap (W3, W4); returns the items
     * requested. When items arrived during that {@code request(n)} (a synchronous upstream emits
     * inside it, W8), the batch they form may have reached its eligible point before anything was
     * written: the controller is asked once more at once ({@link io.sluice.demand.DemandController}:
     * "after each batch of items received"), so it judges the queue as it stood then. Once, not in
     * a loop: the next question comes after the next write.
     */
    private long issueDemand() {
        long before = ledger.receivedItems();
        long issued = requestOnce();
        if (issued > 0 && ledger.receivedItems() != before && failure.get() == null && !aborted) {
            issued += requestOnce();
        }
        return issued;
    }

    private long requestOnce() {
        if (upstreamCompleted) {
            return 0;
        }
        long n;
        try {
            n = ledger.nextRequest();             // W3, W4, never stall; a custom controller may throw
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
            return 0;
        }
        if (n == 0) {
            return 0;
        }
        ledger.requested(n);                      // before request(n): a synchronous onNext checks it
        requestingThread = Thread.currentThread();
        try {
            upstream.request(n);                  // W1
        } catch (Throwable t) {
            failure.compareAndSet(null, t);       // a throwing request ends the write
        } finally {
            requestingThread = null;
        }
        return n;
    }

    /** Everything was written: end the write here, or on the finisher for a sync write (W9). */
    private void complete() {
        terminated = true;                        // no later pass touches this write (W9)
        if (finisher == null || !sync) {
            finish();
            return;
        }
        try {
            finisher.execute(this::finish);
        } catch (RejectedExecutionException e) {
            finish();                             // the finisher is gone: end here rather than never
        }
    }

    /** Forces (sync), claims the commit (F2), commits, closes, completes the stage: W6. */
    private void finish() {
        Throwable failed = null;
        try {
            if (sync) {
                sink.force();
            }
            if (!result.enterCommit()) {          // F2: an outside completion won; its hook aborted the sink
                failed = cancellation();          // close() below without commit() discards, never commits
            } else {
                sink.commit();                    // success only: an atomic sink moves its file into place
                sink.close();
            }
        } catch (Throwable t) {
            failed = t;
        }
        if (failed != null) {
            closeQuietly(failed);
            recording.end(ledger.writtenBytes(), ledger.writtenItems(), ledger.requestCalls(), peakQueuedBytes,
                    failed instanceof CancellationException ? "cancelled" : "failed: " + failed);
            result.fail(failed);
            return;
        }
        recording.end(ledger.writtenBytes(), ledger.writtenItems(), ledger.requestCalls(), peakQueuedBytes, "completed");
        result.succeed(ledger.writtenBytes());
    }

    /** W6: stop, cancel a live upstream, close the sink, fail (or keep cancelled) the stage. */
    private void terminate(Throwable cause) {
        terminated = true;
        try {
            if (!upstreamCompleted && upstream != null) {
                cancelUpstream();
            }
            closeQuietly(cause);
            dropQueued();
            ledger.dropQueued();
            recording.end(ledger.writtenBytes(), ledger.writtenItems(), ledger.requestCalls(), peakQueuedBytes,
                    cause instanceof CancellationException ? "cancelled" : "failed: " + cause);
        } finally {
            result.fail(cause);                   // even if the steps above failed: the stage always ends
        }
    }

    private void cancelLateUpstream() {
        if (!upstreamCancelled && !upstreamCompleted && upstream != null) {
            cancelUpstream();                     // onSubscribe arrived after the write ended
        }
        dropQueued();
    }

    /** Drops the batch's references once the sink is done with them, giving back lent chunks (W10). */
    private void releaseBatch(int count) {
        if (lentSeen) {
            for (int i = 0; i < count; i++) {
                Loans.giveBack(batch[i]);
            }
        }
        Arrays.fill(batch, 0, count, null);
    }

    /** Drops the items a write that ended will not write, giving back lent chunks (W10). */
    private void dropQueued() {
        if (lentSeen) {
            for (ByteBuffer item; (item = emittedInRequest.poll()) != null || (item = queue.poll()) != null; ) {
                Loans.giveBack(item);
            }
        }
        queue.clear();
        emittedInRequest.clear();
    }

    private void cancelUpstream() {
        upstreamCancelled = true;
        try {
            upstream.cancel();                    // W1
        } catch (Throwable ignored) {
            // §3.15 violated by upstream; the write is ending anyway
        }
    }

    private void closeQuietly(Throwable cause) {
        try {
            sink.close();
        } catch (Throwable closeError) {
            if (closeError != cause) {
                cause.addSuppressed(closeError);
            }
        }
    }

    private void report(long issued) {
        for (long[] larger; (larger = largerItems.poll()) != null; ) {
            recording.largerItem(larger[0], larger[1], larger[2]);
            if (listener != null) {
                try {
                    listener.onLargerItem(larger[0], larger[1], larger[2]);
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            }
        }
        if (listener == null) {
            return;
        }
        try {
            listener.onPass(new WriteSnapshot(ledger.requestedItems(), ledger.receivedItems(), ledger.writtenItems(),
                    ledger.queuedBytes(), ledger.writtenBytes(), issued, ledger.requestCalls(),
                    ledger.controller().windowItems(), ledger.controller().describe()));
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
        }
    }

    private void rejected(Throwable e) {
        failure.compareAndSet(null, e instanceof RejectedExecutionException
                ? new RejectedExecutionException("executor rejected the write to " + target + ": "
                        + e.getMessage(), e)
                : e);
        if (!terminated) {
            terminate(failure.get());             // runs as the drain (SerialDrain D1, D4)
        }
    }
}
