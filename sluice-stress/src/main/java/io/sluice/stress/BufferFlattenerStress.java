package io.sluice.stress;

import io.sluice.internal.write.BufferFlattener;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicInteger;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link BufferFlattener}: the downstream has asked for a buffer, so one list was requested. Its
 * upstream sends that last list and completes (actor 1) while the downstream asks for more
 * (actor 2). After a final {@code request(1)} the downstream has received exactly the one buffer,
 * then {@code onComplete} (F3, §1.7); and no list was requested while a buffer was still queued
 * undelivered (F1).
 *
 * <p>Result: {@code buffers received, onComplete, onError, signals after the terminal one, lists
 * requested while a buffer was queued}.
 */
@JCStressTest
@Outcome(id = "1, 1, 0, 0, 0", expect = ACCEPTABLE, desc = "the buffer, then onComplete")
@Outcome(id = "0, 1, 0, 0, [01]", expect = FORBIDDEN, desc = "onComplete dropped the last list's buffer")
@Outcome(id = "1, 1, 0, 0, 1", expect = FORBIDDEN, desc = "F1 broken: a list was requested while a buffer was queued")
@Outcome(expect = FORBIDDEN, desc = "a lost, duplicated or late signal")
@State
public class BufferFlattenerStress {

    private final BufferFlattener flattener = new BufferFlattener();
    private final Downstream downstream = new Downstream();
    private final Upstream upstream = new Upstream();

    public BufferFlattenerStress() {
        flattener.onSubscribe(upstream);
        flattener.subscribe(downstream);
        downstream.subscription.request(1); // the flattener asks upstream for one list
    }

    @Actor
    public void upstream() {
        upstream.listsSent = 1; // before onNext: a request(n) that sees the list queued sees this
        flattener.onNext(List.of(ByteBuffer.wrap(new byte[] {1, 2, 3})));
        flattener.onComplete();
    }

    @Actor
    public void downstream() {
        downstream.subscription.request(1);
    }

    @Arbiter
    public void arbiter(IIIII_Result result) {
        downstream.subscription.request(1);
        result.r1 = downstream.items.get();
        result.r2 = downstream.completes.get();
        result.r3 = downstream.errors.get();
        result.r4 = downstream.afterTerminal.get();
        result.r5 = upstream.readAhead.get();
    }

    /** The HttpClient's side: counts requests made while a sent list is still undelivered. */
    private final class Upstream implements Flow.Subscription {
        private final AtomicInteger readAhead = new AtomicInteger(); // the flattener's drain -> arbiter
        volatile int listsSent; // actor 1 -> the flattener's drain

        @Override
        public void request(long n) {
            if (listsSent > downstream.items.get()) {
                readAhead.incrementAndGet();
            }
        }

        @Override
        public void cancel() {}
    }

    /** The writer's side: counts what it receives. */
    private static final class Downstream implements Flow.Subscriber<ByteBuffer> {
        private final AtomicInteger items = new AtomicInteger(); // the flattener's drain -> arbiter
        private final AtomicInteger completes = new AtomicInteger(); // the flattener's drain -> arbiter
        private final AtomicInteger errors = new AtomicInteger(); // the flattener's drain -> arbiter
        private final AtomicInteger afterTerminal = new AtomicInteger(); // the flattener's drain -> arbiter
        private Flow.Subscription subscription; // set in the state's constructor

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            this.subscription = subscription;
        }

        @Override
        public void onNext(ByteBuffer item) {
            terminalSeen();
            items.incrementAndGet();
        }

        @Override
        public void onError(Throwable error) {
            terminalSeen();
            errors.incrementAndGet();
        }

        @Override
        public void onComplete() {
            terminalSeen();
            completes.incrementAndGet();
        }

        private void terminalSeen() {
            if (completes.get() + errors.get() > 0) {
                afterTerminal.incrementAndGet();
            }
        }
    }
}
