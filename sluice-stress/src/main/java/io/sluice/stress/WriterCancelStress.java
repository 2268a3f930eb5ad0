package io.sluice.stress;

import io.sluice.WriteOptions;
import io.sluice.internal.ChannelWriteSubscriber;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIIIII_Result;
import org.reactivestreams.Subscription;

import java.nio.ByteBuffer;
import java.util.concurrent.CancellationException;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link ChannelWriteSubscriber}: the upstream's last item and {@code onComplete} (actor 1) race
 * {@code cancel(true)} on the stage (actor 2). The drain runs on a direct executor, so passes run
 * on both actors' threads. The stage ends exactly once and agrees with {@code cancel}'s answer;
 * the sink is closed exactly once, before any dependent of the stage runs (W6); no write starts
 * after the sink's {@code abort()} returned, nor after a dependent saw the stage cancelled.
 *
 * <p>Result: {@code cancel returned true, the stage (1 cancelled, 2 completed with 4 bytes, 0
 * other), bytes written, sink closes, sink closes a dependent saw, writes started after abort()
 * returned, writes started after a dependent saw the cancel}.
 */
@JCStressTest
@Outcome(id = "1, 1, 0, 1, 1, 0, 0", expect = ACCEPTABLE, desc = "cancelled before the item was written; closed before the dependent ran")
@Outcome(id = "1, 1, 4, 1, 1, 0, 0", expect = ACCEPTABLE, desc = "cancelled after the item was written; closed before the dependent ran")
@Outcome(id = "0, 2, 4, 1, 1, 0, 0", expect = ACCEPTABLE, desc = "the write completed first; cancel returned false")
@Outcome(id = "1, 1, [04], 1, 0, 0, 0", expect = FORBIDDEN, desc = "cancelled, but a dependent ran while the sink was still open")
@Outcome(id = "1, 1, 4, 1, [01], [01], 1", expect = FORBIDDEN, desc = "a write started after a dependent saw the stage cancelled")
@Outcome(id = "1, 1, 4, 1, [01], 1, 0", expect = FORBIDDEN, desc = "a write started after the sink's abort() returned")
@Outcome(expect = FORBIDDEN, desc = "closed twice or never, the stage disagrees with cancel, or another failure")
@State
public class WriterCancelStress {

    private static final int ITEM_BYTES = 4;

    private final RecordingSink sink = new RecordingSink();
    private final ChannelWriteSubscriber writer =
            new ChannelWriteSubscriber(sink, WriteOptions.defaults(), Runnable::run, "stress");
    private volatile int closesSeenByDependent = -1;   // the stage's dependent -> arbiter; -1: not run

    public WriterCancelStress() {
        writer.result().whenComplete((bytes, error) -> {
            if (error instanceof CancellationException) {
                sink.cancelSeen();
            }
            closesSeenByDependent = sink.closes();
        });
        // The first request(1) is issued from the drain, here (direct executor): actor 1 may send.
        writer.onSubscribe(new Subscription() {
            @Override
            public void request(long n) {
            }

            @Override
            public void cancel() {
            }
        });
    }

    @Actor
    public void upstream() {
        writer.onNext(ByteBuffer.wrap(new byte[ITEM_BYTES]));
        writer.onComplete();
    }

    @Actor
    public void cancel(IIIIIII_Result r) {
        r.r1 = writer.result().cancel(true) ? 1 : 0;
    }

    @Arbiter
    public void arbiter(IIIIIII_Result r) {
        r.r2 = stage();
        r.r3 = sink.bytes();
        r.r4 = sink.closes();
        r.r5 = closesSeenByDependent;
        r.r6 = sink.writesAfterAbort();
        r.r7 = sink.writesAfterCancelSeen();
    }

    private int stage() {
        if (writer.result().isCancelled()) {
            return 1;
        }
        return writer.result().isDone() && !writer.result().isCompletedExceptionally()
                && writer.result().join() == ITEM_BYTES ? 2 : 0;
    }
}
