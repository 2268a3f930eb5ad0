package io.sluice.internal.write;

import org.reactivestreams.Subscription;

/**
 * A write's upstream subscription: attached once by {@code onSubscribe}, and every call on it made
 * from the drain (W1, §2.7), so never concurrently.
 */
final class Upstream {

    private volatile Subscription subscription; // onSubscribe -> drain
    private volatile boolean completed; // onComplete, onError -> drain: nothing left to cancel
    private boolean cancelled; // drain-confined

    /** From {@code onSubscribe}: false, with {@code offered} cancelled, when one is attached already (§2.5). */
    boolean attach(Subscription offered) {
        if (subscription != null) {
            offered.cancel();
            return false;
        }
        subscription = offered;
        return true;
    }

    boolean attached() {
        return subscription != null;
    }

    /** From {@code onComplete} or {@code onError}: the upstream ended on its own. */
    void completed() {
        completed = true;
    }

    boolean isCompleted() {
        return completed;
    }

    /**
     * From the drain: {@code request(n)}, marking {@code queue} so that items emitted inside the
     * call skip the concurrent queue (W8).
     *
     * @return what {@code request} threw, or null
     */
    Throwable request(long n, WriteQueue queue) {
        queue.enterRequest();
        try {
            subscription.request(n);
            return null;
        } catch (Throwable t) {
            return t; // a throwing request ends the write
        } finally {
            queue.leaveRequest();
        }
    }

    /** From the drain, when the write ends: cancels an attached upstream that is still live, once. */
    void cancelIfLive() {
        if (cancelled || completed || subscription == null) {
            return;
        }
        cancelled = true;
        try {
            subscription.cancel();
        } catch (Throwable ignored) {
            // §3.15 violated by upstream; the write is ending anyway
        }
    }
}
