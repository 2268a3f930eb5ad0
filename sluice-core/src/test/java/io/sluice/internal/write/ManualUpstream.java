package io.sluice.internal.write;

import org.reactivestreams.Subscription;

/** An upstream subscription the test drives by hand: it records requests and cancellation. */
final class ManualUpstream implements Subscription {
    long requested;
    int requestCalls;
    boolean cancelled;
    String illegal;

    @Override
    public void request(long n) {
        if (n <= 0) {
            illegal = "request(" + n + ")";
        }
        requestCalls++;
        requested = requested + n < 0 ? Long.MAX_VALUE : requested + n;
    }

    @Override
    public void cancel() {
        cancelled = true;
    }
}
