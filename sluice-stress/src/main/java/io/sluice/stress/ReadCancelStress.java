package io.sluice.stress;

import io.sluice.ByteChannels;
import io.sluice.ReadOptions;
import io.sluice.testkit.CountingChannel;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The read subscription ({@code ByteChannels.publisher} over an endless in-memory channel, on a
 * direct executor): {@code request(1)} (actor 1) races {@code cancel()} (actor 2). At most one
 * {@code onNext} (R2, §1.1); no terminal signal, since a cancelled read signals nothing (R9,
 * §3.5); the channel is closed exactly once, even if the read never opened it (R4), and never
 * read after its close. An {@code onNext} already in flight when {@code cancel} returns is
 * allowed (§3.12; R4 drops the subscriber at once, but a pass may have read it just before).
 *
 * <p>Result: {@code onNext, terminal signals, channel closes, reads after the close, onNext
 * after cancel returned}.
 */
@JCStressTest
@Outcome(id = "0, 0, 1, 0, 0", expect = ACCEPTABLE, desc = "cancelled first: nothing read or signalled; channel closed")
@Outcome(id = "1, 0, 1, 0, 0", expect = ACCEPTABLE, desc = "the chunk came before cancel returned; channel closed")
@Outcome(
        id = "1, 0, 1, 0, 1",
        expect = ACCEPTABLE_INTERESTING,
        desc = "the chunk was in flight when cancel returned (§3.12)")
@Outcome(
        expect = FORBIDDEN,
        desc = "a second chunk, a terminal signal after cancel, a channel closed twice or never, or read after close")
@State
public class ReadCancelStress {

    private final CountingChannel channel = new CountingChannel(); // reads never end; counts closes
    private final Recorder subscriber = new Recorder();

    public ReadCancelStress() {
        ByteChannels.publisher(channel, ReadOptions.defaults().withChunkSize(4).withExecutor(Runnable::run))
                .subscribe(subscriber);
    }

    @Actor
    public void request() {
        subscriber.subscription.request(1);
    }

    @Actor
    public void cancel() {
        subscriber.subscription.cancel();
        subscriber.cancelReturned = true;
    }

    @Arbiter
    public void arbiter(IIIII_Result result) {
        result.r1 = subscriber.items.get();
        result.r2 = subscriber.terminals.get();
        result.r3 = channel.closeCount();
        result.r4 = channel.usesAfterClose();
        result.r5 = subscriber.lateItems.get();
    }

    /** Counts signals; marks an onNext that arrives after cancel() returned. */
    private static final class Recorder implements Subscriber<ByteBuffer> {
        private final AtomicInteger items = new AtomicInteger(); // the read's drain -> arbiter
        private final AtomicInteger terminals = new AtomicInteger(); // the read's drain -> arbiter
        private final AtomicInteger lateItems = new AtomicInteger(); // the read's drain -> arbiter
        private Subscription subscription; // onSubscribe, in the state's constructor
        volatile boolean cancelReturned; // actor 2 -> onNext

        @Override
        public void onSubscribe(Subscription subscription) {
            this.subscription = subscription;
        }

        @Override
        public void onNext(ByteBuffer item) {
            if (cancelReturned) {
                lateItems.incrementAndGet();
            }
            items.incrementAndGet();
        }

        @Override
        public void onError(Throwable error) {
            terminals.incrementAndGet();
        }

        @Override
        public void onComplete() {
            terminals.incrementAndGet();
        }
    }
}
