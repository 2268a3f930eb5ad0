package io.sluice.internal.write;

import io.sluice.internal.OperationFuture;

import java.util.concurrent.CancellationException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * How a write ends (W6, W9): on success the sink is forced (with sync), committed and closed before
 * the stage completes, on the drain or, for a sync write, on the finisher; on failure or
 * cancellation the sink is closed and the stage failed, even if closing fails. Called once per
 * write, by the drain.
 */
final class WriteEnd {

    private final WriteSink sink;
    private final OperationFuture<Long> result;
    private final WriteReports reports;
    private final WriteLedger ledger;
    private final boolean sync;
    private final Executor finisher; // null: finish on the drain (W9)
    private final String target;

    WriteEnd(
            WriteSink sink,
            OperationFuture<Long> result,
            WriteReports reports,
            WriteLedger ledger,
            boolean sync,
            Executor finisher,
            String target) {
        this.sink = sink;
        this.result = result;
        this.reports = reports;
        this.ledger = ledger;
        this.sync = sync;
        this.finisher = finisher;
        this.target = target;
    }

    CancellationException cancellation() {
        return new CancellationException("write to " + target + " was cancelled");
    }

    /**
     * Everything was written: ends the write here, or on the finisher for a sync write (W9). The
     * caller has marked the write terminated, so no later pass touches it; the hand-off through
     * {@link Executor#execute} publishes the drain's state to the finisher.
     */
    void succeed() {
        if (finisher == null || !sync) {
            finish();
            return;
        }
        try {
            finisher.execute(this::finish);
        } catch (RejectedExecutionException e) {
            finish(); // the finisher is gone: end here rather than never
        }
    }

    /** Forces (sync), claims the commit (F2), commits, closes, completes the stage. */
    private void finish() {
        Throwable failed = null;
        try {
            if (sync) {
                sink.force();
            }
            if (!result.enterCommit()) { // F2: an outside completion won; its hook aborted the sink
                failed = cancellation(); // close() below without commit() discards, never commits
            } else {
                sink.commit(); // success only: an atomic sink moves its file into place
                sink.close();
            }
        } catch (Throwable t) {
            failed = t;
        }
        if (failed != null) {
            fail(failed);
            return;
        }
        reports.end(null);
        result.succeed(ledger.writtenBytes());
    }

    /** Closes the sink (a close failure is added to {@code cause}), reports, fails the stage. */
    void fail(Throwable cause) {
        try {
            try {
                sink.close();
            } catch (Throwable closeError) {
                if (closeError != cause) {
                    cause.addSuppressed(closeError);
                }
            }
            reports.end(cause);
        } finally {
            result.fail(cause); // even if the steps above failed: the stage always ends
        }
    }
}
