package io.sluice.stress;

import io.sluice.internal.write.ChannelWriteSubscriber;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

import java.nio.ByteBuffer;
import java.util.concurrent.CancellationException;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link ChannelWriteSubscriber}: the upstream's last item and {@code onComplete} (actor 1) race
 * {@code cancel(true)} on the stage (actor 2). The drain runs on a direct executor, so passes run
 * on both actors' threads; the sink is a {@link ChannelSink} over a channel that closes as a JDK
 * file channel does. The stage ends exactly once and agrees with {@code cancel}'s answer; the
 * channel is closed before any dependent of the stage runs (W6), and no byte reaches it after a
 * dependent saw the stage cancelled.
 *
 * <p>Result: {@code cancel returned true, the stage (1 cancelled, 2 completed with 4 bytes, 0
 * other), bytes that reached the channel, the channel open when the dependent ran, bytes that
 * reached it after a dependent saw the cancel}.
 */
@JCStressTest
@Outcome(
        id = "1, 1, 0, 0, 0",
        expect = ACCEPTABLE,
        desc = "cancelled before the item was written; closed before the dependent ran")
@Outcome(
        id = "1, 1, 4, 0, 0",
        expect = ACCEPTABLE,
        desc = "cancelled after the item was written; closed before the dependent ran")
@Outcome(id = "0, 2, 4, 0, 0", expect = ACCEPTABLE, desc = "the write completed first; cancel returned false")
@Outcome(
        id = "1, 1, [04], 1, 0",
        expect = FORBIDDEN,
        desc = "cancelled, but a dependent ran while the channel was still open")
@Outcome(
        id = "1, 1, 4, [01], 4",
        expect = FORBIDDEN,
        desc = "bytes reached the channel after a dependent saw the stage cancelled")
@Outcome(expect = FORBIDDEN, desc = "the stage disagrees with cancel, the dependent never ran, or another failure")
@State
public class WriterCancelStress {

    private static final int ITEM_BYTES = 4;

    private final MemoryChannel channel = new MemoryChannel();
    private final ChannelWriteSubscriber writer = StressWriters.subscribed(channel);
    private volatile int openSeenByDependent = -1; // the stage's dependent -> arbiter; -1: not run

    public WriterCancelStress() {
        writer.result().whenComplete((bytes, error) -> {
            if (error instanceof CancellationException) {
                channel.cancelSeen();
            }
            openSeenByDependent = channel.isOpen() ? 1 : 0;
        });
    }

    @Actor
    public void upstream() {
        writer.onNext(ByteBuffer.wrap(new byte[ITEM_BYTES]));
        writer.onComplete();
    }

    @Actor
    public void cancel(IIIII_Result result) {
        result.r1 = writer.result().cancel(true) ? 1 : 0;
    }

    @Arbiter
    public void arbiter(IIIII_Result result) {
        result.r2 = stage();
        result.r3 = channel.bytes();
        result.r4 = openSeenByDependent;
        result.r5 = channel.bytesAfterCancelSeen();
    }

    private int stage() {
        if (writer.result().isCancelled()) {
            return 1;
        }
        return writer.result().isDone()
                        && !writer.result().isCompletedExceptionally()
                        && writer.result().join() == ITEM_BYTES
                ? 2
                : 0;
    }
}
