package io.sluice.stress;

import io.sluice.internal.AbortGate;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link AbortGate}: an abort (actor 2) races the drain's open step and the write the drain does
 * through what it opened (actor 1). G1: once the abort has returned no open starts; G2: what an
 * open opened is closed exactly once, by the abort or, when the abort stopped waiting, by the
 * opening thread before {@code open} returns; either way a drain that gets a file from
 * {@code open} after the abort has returned finds it closed, so nothing is written through it. Run with the abort's wait at zero (it never waits, so every race that finds an open
 * in flight takes the deferred close) and at the library's default.
 *
 * <p>Result: {@code opened (1) or refused (0), times closed, opens that returned a file still
 * open after the abort had returned, abort won (1)}.
 */
public final class AbortGateStress {

    private AbortGateStress() {}

    /** A channel stand-in: counts closes, and writes that find the abort already called. */
    static final class FakeFile {
        final AtomicInteger closes = new AtomicInteger(); // close steps -> arbiter
        volatile boolean closed; // close steps -> writer
    }

    abstract static class Race {
        final AbortGate gate;
        volatile FakeFile file; // open step -> close step, arbiter
        volatile boolean abortReturned; // abort actor -> writer
        int writesAfterAbort; // drain actor -> arbiter (jcstress orders actors before the arbiter)
        int opened; // drain actor -> arbiter

        Race(long openWaitNanos) {
            gate = new AbortGate(openWaitNanos);
        }

        void open() {
            try {
                FakeFile opened = gate.open(
                        () -> {
                            FakeFile fresh = new FakeFile();
                            file = fresh;
                            return fresh;
                        },
                        "stress");
                this.opened = 1;
                if (abortReturned && !opened.closed) {
                    writesAfterAbort++; // a file still open after the abort returned: the drain would write
                }
            } catch (IOException refused) {
                opened = file == null ? 0 : 1;
            }
        }

        int abort() {
            boolean won = gate.abort(() -> {
                FakeFile current = file;
                if (current != null) {
                    current.closed = true;
                    current.closes.incrementAndGet();
                }
            });
            abortReturned = true;
            return won ? 1 : 0;
        }

        void report(IIII_Result result) {
            FakeFile current = file;
            result.r1 = opened;
            result.r2 = current == null ? 0 : current.closes.get();
            result.r3 = writesAfterAbort;
        }
    }

    /** The abort never waits: an open in flight always gets the deferred close (G2). */
    @JCStressTest
    @Outcome(id = "0, 0, 0, 1", expect = ACCEPTABLE, desc = "abort first: nothing opened (G1)")
    @Outcome(id = "1, 1, 0, 1", expect = ACCEPTABLE, desc = "opened, then closed exactly once (G2)")
    @Outcome(id = "1, 0, .*", expect = FORBIDDEN, desc = "opened and never closed")
    @Outcome(id = "1, 2, .*", expect = FORBIDDEN, desc = "closed twice")
    @Outcome(expect = FORBIDDEN, desc = "a write went through after the abort, or the abort lost")
    @State
    public static class NoWait extends Race {
        public NoWait() {
            super(0);
        }

        @Actor
        public void drain(IIII_Result result) {
            open();
        }

        @Actor
        public void outside(IIII_Result result) {
            result.r4 = abort();
        }

        @Arbiter
        public void arbiter(IIII_Result result) {
            report(result);
        }
    }

    /** The abort waits as the library's gates do: an open in flight is closed by the abort (G2). */
    @JCStressTest
    @Outcome(id = "0, 0, 0, 1", expect = ACCEPTABLE, desc = "abort first: nothing opened (G1)")
    @Outcome(id = "1, 1, 0, 1", expect = ACCEPTABLE, desc = "opened, then closed exactly once (G2)")
    @Outcome(id = "1, 0, .*", expect = FORBIDDEN, desc = "opened and never closed")
    @Outcome(id = "1, 2, .*", expect = FORBIDDEN, desc = "closed twice")
    @Outcome(expect = FORBIDDEN, desc = "a write went through after the abort, or the abort lost")
    @State
    public static class DefaultWait extends Race {
        public DefaultWait() {
            super(AbortGate.OPEN_WAIT_NANOS);
        }

        @Actor
        public void drain(IIII_Result result) {
            open();
        }

        @Actor
        public void outside(IIII_Result result) {
            result.r4 = abort();
        }

        @Arbiter
        public void arbiter(IIII_Result result) {
            report(result);
        }
    }
}
