package io.sluice.tck.support;

import org.reactivestreams.Subscription;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The subscription side of a test upstream, checking how a subscriber calls it:
 * <ul>
 *   <li>§2.7: {@code request} and {@code cancel} never run concurrently (a call from a second thread
 *       while one is in progress is a violation; a nested call on the same thread, from a signal
 *       sent inside {@code request}, is the recursion §3.3 allows);</li>
 *   <li>§3.9: every {@code request(n)} has {@code n > 0}.</li>
 * </ul>
 * What the upstream does on a call is up to it ({@link Calls}).
 */
public final class CheckedSubscription implements Subscription {

    /** What the upstream does when called; runs inside the checked region. */
    public interface Calls {
        void request(long n);

        void cancel();
    }

    private final Calls calls;
    private final AtomicReference<Thread> caller = new AtomicReference<>();
    private final ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
    private final CountDownLatch cancelled = new CountDownLatch(1);
    private int depth; // the current caller only

    public CheckedSubscription(Calls calls) {
        this.calls = calls;
    }

    @Override
    public void request(long n) {
        boolean outermost = enter("request(" + n + ")");
        try {
            if (n <= 0) {
                violations.add("§3.9: request(" + n + ")");
            }
            calls.request(n);
        } finally {
            exit(outermost);
        }
    }

    @Override
    public void cancel() {
        boolean outermost = enter("cancel()");
        try {
            cancelled.countDown();
            calls.cancel();
        } finally {
            exit(outermost);
        }
    }

    private boolean enter(String call) {
        Thread me = Thread.currentThread();
        if (caller.compareAndSet(null, me)) {
            depth = 1;
            return true;
        }
        Thread other = caller.get();
        if (other == me) {
            depth++;
            return false;
        }
        violations.add("§2.7: " + call + " on " + me.getName() + " while "
                + (other == null ? "another call" : other.getName()) + " was inside request/cancel");
        return false;
    }

    private void exit(boolean outermost) {
        if (outermost) {
            depth = 0;
            caller.set(null);
        } else if (caller.get() == Thread.currentThread()) {
            depth--;
        }
    }

    public CountDownLatch cancelledLatch() {
        return cancelled;
    }

    public List<String> violations() {
        return List.copyOf(violations);
    }
}
