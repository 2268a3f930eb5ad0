package io.sluice.server.ws.load;

import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/** The totals of one lane's clients: messages (fast and slow), order faults, the first error. */
final class LoadTally {

    private final LongAdder fastMessages = new LongAdder();
    private final LongAdder slowMessages = new LongAdder();
    private final LongAdder gaps = new LongAdder();        // a sequence number skipped ahead
    private final LongAdder duplicates = new LongAdder();  // a sequence number seen again or gone back
    private final AtomicReference<Throwable> firstError = new AtomicReference<>();

    void received(boolean slow) {
        (slow ? slowMessages : fastMessages).increment();
    }

    void gap() {
        gaps.increment();
    }

    void duplicate() {
        duplicates.increment();
    }

    void error(Throwable cause) {
        firstError.compareAndSet(null, cause);
    }

    long fastMessages() {
        return fastMessages.sum();
    }

    long slowMessages() {
        return slowMessages.sum();
    }

    long gaps() {
        return gaps.sum();
    }

    long duplicates() {
        return duplicates.sum();
    }

    /** The first client error, or null. */
    Throwable firstError() {
        return firstError.get();
    }
}
