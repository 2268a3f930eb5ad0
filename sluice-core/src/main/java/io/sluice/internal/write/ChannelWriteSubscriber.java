package io.sluice.internal.write;

import io.sluice.WriteOptions;
import io.sluice.internal.Loans;
import io.sluice.internal.OperationFuture;
import io.sluice.internal.SerialDrain;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.nio.ByteBuffer;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Writes an upstream publisher's buffers to a {@link WriteSink}: {@code onNext} only enqueues; the
 * drain writes what is queued with gathering writes and asks the demand controller what to
 * request next.
 *
 * <p>It keeps the write's invariants W1-W11, stated in this package's {@code package-info}; the
 * branch that enforces one names it.
 */
public final class ChannelWriteSubscriber extends SerialDrain implements Subscriber<ByteBuffer> {

    private final WriteSink sink;
    private final WriteLedger ledger; // its receiving methods from onNext, the rest from the drain
    private final WriteReports reports; // listener and JFR: onNext notes, the drain reports
    private final OperationFuture<Long> result = new OperationFuture<>();
    private final WriteEnd end; // drain-confined, then the finisher's (W9)
    private final String target;
    private final String operation; // "write to " + target, for refusals: built once, not per item

    private final WriteQueue queue; // onNext -> drain (W8)
    private final AtomicReference<Throwable> failure = new AtomicReference<>(); // any thread -> drain; first wins
    private volatile Throwable upstreamError; // onError -> drain: ends the write once what came before is written (W11)
    private final Upstream upstream = new Upstream(); // attached by onSubscribe, called from the drain (W1)
    private volatile boolean aborted; // any thread -> drain: the stage was completed from outside
    private volatile boolean terminated; // drain -> onNext: late items are dropped
    private boolean opened; // drain-confined

    public ChannelWriteSubscriber(WriteSink sink, WriteOptions options, Executor executor, String target) {
        this(sink, options, executor, null, target);
    }

    /**
     * @param finisher where a sync write's final force, commit and close run (W9); {@code null}:
     *     on the drain, like everything else
     */
    public ChannelWriteSubscriber(
            WriteSink sink, WriteOptions options, Executor executor, Executor finisher, String target) {
        super(executor, false); // the write is its own drain: one object per write for both
        this.sink = sink;
        this.queue = new WriteQueue();
        this.ledger = new WriteLedger(options.demand(), options.maxQueuedBytes(), options.maxItemBytes());
        this.target = target;
        this.operation = "write to " + target;
        this.reports = new WriteReports(ledger, options.listener(), target, options.demand());
        this.end = new WriteEnd(sink, result, reports, ledger, options.sync(), finisher, target);
        result.onAbort(
                () -> { // on the completing thread, before the stage completes
                    aborted = true; // first: a pass that finds the sink closed knows why
                    try {
                        sink.abort(); // the target is closed before any dependent runs
                    } catch (RuntimeException e) {
                        // a user's channel failed to close; the drain still closes it and ends the write
                    }
                    signal(); // the drain cancels upstream (W1) and ends the write
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
        if (upstream.attach(subscription)) { // §2.5: a second subscription is cancelled
            signal(); // W1: the first request comes from the drain
        }
    }

    @Override
    public void onNext(ByteBuffer item) {
        if (item == null) {
            throw violated2_13("onNext item");
        }
        if (terminated || failure.get() != null) {
            Loans.giveBack(item); // W10, if lent
            return; // §2.8: late items after cancel are dropped
        }
        long size = item.remaining();
        RuntimeException refused = ledger.refusal(size, operation); // W5 (§1.1), declared size
        if (refused != null) {
            Loans.giveBack(item); // W10, if lent
            fail(refused);
            return;
        }
        boolean lent = Loans.isLent(item);
        long largest = ledger.largestItemBytes();
        long grantedForSmaller = ledger.receive(size); // W8: bytes before the count, both before the offer
        if (grantedForSmaller > 0) {
            reports.largerItem(size, largest, grantedForSmaller);
        }
        if (queue.offer(
                item,
                lent)) { // W8: not when we are the drain, inside its request(n); an owned item is duplicated or copied
            signal(); // W2
        }
    }

    @Override
    public void onError(Throwable error) {
        if (error == null) {
            upstream.completed(); // the upstream meant to end: nothing to cancel
            throw violated2_13("onError throwable");
        }
        upstreamError = error; // W11: before the flag, so a drain that sees it sees the error
        upstream.completed(); // terminal: nothing to cancel
        signal();
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
        signal();
    }

    @Override
    public void onComplete() {
        upstream.completed();
        signal();
    }

    // ---- the drain ----

    /** A drain pass (called by {@link SerialDrain} only). */
    @Override
    protected boolean pass() {
        if (terminated) {
            upstream.cancelIfLive(); // onSubscribe arrived after the write ended
            queue.dropAll();
            return false;
        }
        if (stopRequested()) {
            return false;
        }
        if (!upstream.attached()) {
            return false; // waiting for onSubscribe
        }
        if (!opened) {
            try {
                sink.open(() -> aborted || failure.get() != null);
                opened = true;
            } catch (Throwable t) {
                terminate(sinkFailure(t));
                return false;
            }
            issueDemand();
            if (stopRequested()) {
                return false;
            }
        }
        long bytesThisPass = 0;
        long itemsThisPass = 0;
        for (; ; ) {
            reports.sawQueued();
            int count = queue.takeBatch(itemsThisPass);
            if (count > 0) {
                long batchBytes = queue.batchBytes();
                if (stopRequested()) { // an outside completion since the last check
                    queue.releaseBatch();
                    return false;
                }
                try {
                    // W10: a lent chunk's bytes are in the target before it is given back, so
                    // nothing of a write that takes lent chunks stays staged past its batch
                    boolean complete = sink.writeFully(queue.batch(), 0, count) && (!queue.lentSeen() || sink.flush());
                    queue.releaseBatch();
                    if (!complete) {
                        stopRequested();
                        return false;
                    }
                } catch (Throwable t) {
                    queue.releaseBatch();
                    // an abort closes the sink under the write
                    terminate(aborted ? end.cancellation() : sinkFailure(t));
                    return false;
                }
                ledger.written(count, batchBytes);
                ledger.staged(sink.stagedBytes()); // W4: held back, still counted against the cap
                bytesThisPass += batchBytes;
                itemsThisPass += count;
            }
            if (stopRequested()) {
                return false;
            }
            long issued = issueDemand();
            boolean drained = queue.isEmpty();
            boolean completing =
                    drained && upstream.isCompleted() && failure.get() == null && ledger.queuedItems() == 0;
            boolean heldBack = sink.stagedBytes() > 0;
            // the pass may end here (the write waits or ends): nothing held back while it waits
            // (ST3), and written before the listener hears of this pass, so what it is told is
            // written is in the target (W12)
            if (drained && (completing || issued == 0) && !flushSink()) {
                return false;
            }
            reports.pass(issued, failure); // what the listener throws fails the write
            if (stopRequested()) { // the controller, request() or the listener threw
                return false;
            }
            if (completing) {
                Throwable error = upstreamError;
                if (error != null) {
                    terminate(error); // W11: all that came before the error is written
                    return false;
                }
                terminated = true; // no later pass touches this write (W9)
                end.succeed();
                return false;
            }
            if (queue.isEmpty() && issued == 0) { // flushed above: only the drain takes from the queue
                if (!heldBack) {
                    return false; // wait for the next signal (or the write ended)
                }
                continue; // W4: the staged bytes may be what kept the demand at 0: ask again
            }
            if (WriteLedger.passDone(bytesThisPass, itemsThisPass)) {
                return flushSink(); // W7; nothing staged is held while the write waits to run again (ST3)
            }
        }
    }

    /**
     * Has the sink write what it held back (ChannelSink's ST3), before the pass ends (to wait for
     * items, to yield, or to succeed); false if the write ended instead (aborted, or the flush
     * failed).
     */
    private boolean flushSink() {
        try {
            if (sink.flush()) {
                ledger.staged(0);
                return true;
            }
            stopRequested();
        } catch (Throwable t) {
            terminate(aborted ? end.cancellation() : sinkFailure(t)); // an abort closes the sink under the write
        }
        return false;
    }

    /**
     * What the write fails with when its sink's open, write or flush threw (W11): once the
     * upstream's error has arrived, that error, with the sink's failure suppressed in it, as
     * try-with-resources attaches a failing close (the sink was at work on what came before the
     * error); before it, the sink's own failure.
     */
    private Throwable sinkFailure(Throwable thrown) {
        Throwable error = upstreamError;
        if (error == null || error == thrown) {
            return thrown;
        }
        error.addSuppressed(thrown);
        return error;
    }

    /** Handles failure and abort; returns true if the write has ended. */
    private boolean stopRequested() {
        if (terminated) {
            return true;
        }
        if (aborted) { // first: an abort's own fallout (a closed source) is no failure
            terminate(end.cancellation());
            return true;
        }
        Throwable error = failure.get();
        if (error != null) {
            terminate(error);
            return true;
        }
        return false;
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
        if (upstream.isCompleted()) {
            return 0;
        }
        long n;
        try {
            n = ledger.nextRequest(); // W3, W4, never stall; a custom controller may throw
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
            return 0;
        }
        if (n == 0) {
            return 0;
        }
        ledger.requested(n); // before request(n): a synchronous onNext checks it
        Throwable thrown = upstream.request(n, queue); // W1
        if (thrown != null) {
            failure.compareAndSet(null, thrown);
        }
        return n;
    }

    /** W6: stop, cancel a live upstream, drop what is queued, close the sink, fail (or keep cancelled) the stage. */
    private void terminate(Throwable cause) {
        terminated = true;
        try {
            upstream.cancelIfLive();
            queue.dropAll();
            ledger.dropQueued();
        } finally {
            end.fail(cause);
        }
    }

    /** The drain's failure: its executor refused it, or a pass threw (called by {@link SerialDrain} only). */
    @Override
    protected void passFailed(Throwable error) {
        failure.compareAndSet(
                null,
                error instanceof RejectedExecutionException
                        ? new RejectedExecutionException(
                                "executor rejected the write to " + target + ": " + error.getMessage(), error)
                        : error);
        if (!terminated) {
            terminate(failure.get()); // runs as the drain (SerialDrain D1, D4)
        }
    }
}
