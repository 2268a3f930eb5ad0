package io.sluice.stress;

import io.sluice.internal.OperationFuture;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link OperationFuture}: a completion from outside (actor 1) races the operation's own
 * completion (actor 2). Exactly one wins and the stage holds its result (F1); the abort hook runs
 * once iff the outside completion won (F1), and has finished before any dependent of the stage
 * runs, since the hook is what closes the file; {@code enterCommit()} and an outside completion
 * never both win (F2).
 *
 * <p>Result: {@code outside call won, operation call won, abort hook runs, the stage's dependent
 * saw the hook finished (1) or not (0), whose result the stage holds (1 outside, 2 operation)}.
 */
public final class OperationFutureStress {

    private static final int OUTSIDE_VALUE = 5;
    private static final int OPERATION_VALUE = 7;
    private static final RuntimeException OUTSIDE_ERROR = new RuntimeException("outside");
    private static final RuntimeException OPERATION_ERROR = new RuntimeException("operation");

    private OperationFutureStress() {}

    /** The stage, its abort hook and one dependent registered before the race. */
    abstract static class Staged {
        final OperationFuture<Integer> future = new OperationFuture<>();
        private final AtomicInteger hookRuns = new AtomicInteger(); // hook -> arbiter
        private volatile boolean hookDone; // hook -> dependent
        private volatile int dependentSawHookDone = -1; // dependent -> arbiter; -1: not run

        Staged() {
            future.onAbort(() -> {
                hookRuns.incrementAndGet();
                hookDone = true;
            });
            future.whenComplete((value, error) -> dependentSawHookDone = hookDone ? 1 : 0);
        }

        void report(IIIII_Result result) {
            result.r3 = hookRuns.get();
            result.r4 = dependentSawHookDone;
            result.r5 = holder();
        }

        /** 1: the stage holds the outside completion's result; 2: the operation's; 0: neither. */
        private int holder() {
            if (future.isCancelled()) {
                return 1;
            }
            try {
                int value = future.join();
                return value == OUTSIDE_VALUE ? 1 : value == OPERATION_VALUE ? 2 : 0;
            } catch (CancellationException e) {
                return 1;
            } catch (CompletionException e) {
                return e.getCause() == OUTSIDE_ERROR ? 1 : e.getCause() == OPERATION_ERROR ? 2 : 0;
            }
        }
    }

    /** {@code cancel(true)} against the operation's {@code succeed}. */
    @JCStressTest
    @Outcome(id = "1, 0, 1, 1, 1", expect = ACCEPTABLE, desc = "cancel won; hook finished before the dependent ran")
    @Outcome(id = "0, 1, 0, 0, 2", expect = ACCEPTABLE, desc = "the operation won; no abort")
    @Outcome(
            id = "1, 0, 1, 0, 1",
            expect = FORBIDDEN,
            desc = "cancel won, but a dependent ran before the abort hook finished")
    @Outcome(expect = FORBIDDEN, desc = "both or neither won, hook ran wrongly, or the stage holds the loser's result")
    @State
    public static class CancelVsSucceed extends Staged {
        @Actor
        public void outside(IIIII_Result result) {
            result.r1 = future.cancel(true) ? 1 : 0;
        }

        @Actor
        public void operation(IIIII_Result result) {
            result.r2 = future.succeed(OPERATION_VALUE) ? 1 : 0;
        }

        @Arbiter
        public void arbiter(IIIII_Result result) {
            report(result);
        }
    }

    /** {@code cancel(true)} against the operation's {@code fail}. */
    @JCStressTest
    @Outcome(id = "1, 0, 1, 1, 1", expect = ACCEPTABLE, desc = "cancel won; hook finished before the dependent ran")
    @Outcome(id = "0, 1, 0, 0, 2", expect = ACCEPTABLE, desc = "the operation failed first; no abort")
    @Outcome(
            id = "1, 0, 1, 0, 1",
            expect = FORBIDDEN,
            desc = "cancel won, but a dependent ran before the abort hook finished")
    @Outcome(expect = FORBIDDEN, desc = "both or neither won, hook ran wrongly, or the stage holds the loser's result")
    @State
    public static class CancelVsFail extends Staged {
        @Actor
        public void outside(IIIII_Result result) {
            result.r1 = future.cancel(true) ? 1 : 0;
        }

        @Actor
        public void operation(IIIII_Result result) {
            result.r2 = future.fail(OPERATION_ERROR) ? 1 : 0;
        }

        @Arbiter
        public void arbiter(IIIII_Result result) {
            report(result);
        }
    }

    /** {@code complete(v)} from outside against the operation's {@code fail}. */
    @JCStressTest
    @Outcome(id = "1, 0, 1, 1, 1", expect = ACCEPTABLE, desc = "complete won; hook finished before the dependent ran")
    @Outcome(id = "0, 1, 0, 0, 2", expect = ACCEPTABLE, desc = "the operation failed first; no abort")
    @Outcome(
            id = "1, 0, 1, 0, 1",
            expect = FORBIDDEN,
            desc = "complete won, but a dependent ran before the abort hook finished")
    @Outcome(expect = FORBIDDEN, desc = "both or neither won, hook ran wrongly, or the stage holds the loser's result")
    @State
    public static class CompleteVsFail extends Staged {
        @Actor
        public void outside(IIIII_Result result) {
            result.r1 = future.complete(OUTSIDE_VALUE) ? 1 : 0;
        }

        @Actor
        public void operation(IIIII_Result result) {
            result.r2 = future.fail(OPERATION_ERROR) ? 1 : 0;
        }

        @Arbiter
        public void arbiter(IIIII_Result result) {
            report(result);
        }
    }

    /** {@code completeExceptionally} from outside against the operation's {@code succeed}. */
    @JCStressTest
    @Outcome(
            id = "1, 0, 1, 1, 1",
            expect = ACCEPTABLE,
            desc = "completeExceptionally won; hook finished before the dependent ran")
    @Outcome(id = "0, 1, 0, 0, 2", expect = ACCEPTABLE, desc = "the operation won; no abort")
    @Outcome(
            id = "1, 0, 1, 0, 1",
            expect = FORBIDDEN,
            desc = "completeExceptionally won, but a dependent ran before the abort hook finished")
    @Outcome(expect = FORBIDDEN, desc = "both or neither won, hook ran wrongly, or the stage holds the loser's result")
    @State
    public static class CompleteExceptionallyVsSucceed extends Staged {
        @Actor
        public void outside(IIIII_Result result) {
            result.r1 = future.completeExceptionally(OUTSIDE_ERROR) ? 1 : 0;
        }

        @Actor
        public void operation(IIIII_Result result) {
            result.r2 = future.succeed(OPERATION_VALUE) ? 1 : 0;
        }

        @Arbiter
        public void arbiter(IIIII_Result result) {
            report(result);
        }
    }

    /**
     * {@code cancel(true)} against the operation's point of no return (F2): the operation claims
     * {@code enterCommit()} and, only if that won, succeeds.
     */
    @JCStressTest
    @Outcome(
            id = "1, 0, 1, 1, 1",
            expect = ACCEPTABLE,
            desc = "cancel won; the commit was refused; hook finished before the dependent ran")
    @Outcome(id = "0, 1, 0, 0, 2", expect = ACCEPTABLE, desc = "the commit won; cancel returned false")
    @Outcome(
            id = "1, 0, 1, 0, 1",
            expect = FORBIDDEN,
            desc = "cancel won, but a dependent ran before the abort hook finished")
    @Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "F2 broken: cancel and the commit both won")
    @Outcome(expect = FORBIDDEN, desc = "neither won, hook ran wrongly, or the stage holds the loser's result")
    @State
    public static class CancelVsCommit extends Staged {
        @Actor
        public void outside(IIIII_Result result) {
            result.r1 = future.cancel(true) ? 1 : 0;
        }

        @Actor
        public void operation(IIIII_Result result) {
            boolean claimed = future.enterCommit();
            if (claimed) {
                future.succeed(OPERATION_VALUE);
            }
            result.r2 = claimed ? 1 : 0;
        }

        @Arbiter
        public void arbiter(IIIII_Result result) {
            report(result);
        }
    }
}
