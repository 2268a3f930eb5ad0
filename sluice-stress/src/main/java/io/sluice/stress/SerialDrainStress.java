package io.sluice.stress;

import io.sluice.internal.SerialDrain;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link SerialDrain}: two threads {@code signal()} at once. No two passes overlap (D1), and the
 * passes together see both signallers' plain writes (D2: a pass happens-after every signal counted
 * before it), so no signal is lost.
 *
 * <p>Result: {@code overlapping passes, pass saw actor 1's write, pass saw actor 2's write}.
 */
public final class SerialDrainStress {

    private SerialDrainStress() {}

    /** What a pass does: counts overlaps, copies the signallers' plain fields. */
    abstract static class Drained {
        private final AtomicInteger inPass = new AtomicInteger(); // any pass
        private final AtomicInteger overlaps = new AtomicInteger(); // any pass -> arbiter
        int written1; // actor 1, before its signal; read by passes (D2)
        int written2; // actor 2, before its signal; read by passes (D2)
        private int seen1; // passes only (serial by D1) -> arbiter
        private int seen2; // passes only (serial by D1) -> arbiter

        boolean pass() {
            if (inPass.getAndIncrement() != 0) {
                overlaps.incrementAndGet();
            }
            seen1 |= written1;
            seen2 |= written2;
            inPass.decrementAndGet();
            return false;
        }

        void report(III_Result result) {
            result.r1 = overlaps.get();
            result.r2 = seen1;
            result.r3 = seen2;
        }
    }

    /** Passes run on the signalling threads (a direct executor). */
    @JCStressTest
    @Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "passes serial, both signals seen")
    @Outcome(
            id = {"0, 0, 0", "0, 0, 1", "0, 1, 0"},
            expect = FORBIDDEN,
            desc = "D2 broken: a signal was lost")
    @Outcome(expect = FORBIDDEN, desc = "D1 broken: two passes overlapped")
    @State
    public static class Direct extends Drained {
        private final SerialDrain drain = SerialDrain.of(Runnable::run, this::pass, error -> {}, false);

        @Actor
        public void actor1() {
            written1 = 1;
            drain.signal();
        }

        @Actor
        public void actor2() {
            written2 = 1;
            drain.signal();
        }

        @Arbiter
        public void arbiter(III_Result result) {
            report(result); // a direct executor ran every pass inside the actors' signal()
        }
    }

    /** Passes run on one worker thread shared by all states (the executor of a real write). */
    @JCStressTest
    @Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "passes serial, both signals seen")
    @Outcome(
            id = {"0, 0, 0", "0, 0, 1", "0, 1, 0"},
            expect = FORBIDDEN,
            desc = "D2 broken: a signal was lost")
    @Outcome(expect = FORBIDDEN, desc = "D1 broken: two passes overlapped")
    @State
    public static class Worker extends Drained {
        private static final ExecutorService WORKER = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "serial-drain-stress");
            thread.setDaemon(true);
            return thread;
        });

        private final SerialDrain drain = SerialDrain.of(WORKER, this::pass, error -> {}, false);

        @Actor
        public void actor1() {
            written1 = 1;
            drain.signal();
        }

        @Actor
        public void actor2() {
            written2 = 1;
            drain.signal();
        }

        @Arbiter
        public void arbiter(III_Result result) {
            // Every drain task was submitted inside a signal() that returned before now, and the
            // worker is FIFO: once this marker has run, every pass has finished.
            try {
                WORKER.submit(() -> {}).get();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            report(result);
        }
    }
}
