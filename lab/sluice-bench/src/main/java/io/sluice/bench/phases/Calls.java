package io.sluice.bench.phases;

import java.util.ArrayList;
import java.util.List;

/**
 * The file-system calls one operation made, each with its kind and when it started and returned
 * ({@link System#nanoTime()}). Any thread adds (the operation's calls run on its executor); the
 * measuring thread takes them once the operation has completed.
 */
final class Calls {

    /** What a call did, in the phases {@link PhaseTimes} reports. */
    enum Kind {
        STAT,
        OPEN,
        SIZE,
        IO,
        CLOSE,
        OTHER
    }

    /** One call: its kind, and when it started and returned. */
    record Call(Kind kind, long began, long ended) {}

    private final List<Call> calls = new ArrayList<>(); // guarded by this

    synchronized void add(Kind kind, long began) {
        calls.add(new Call(kind, began, System.nanoTime()));
    }

    /** The calls since the last take, in the order they returned; clears them. */
    synchronized List<Call> take() {
        List<Call> taken = List.copyOf(calls);
        calls.clear();
        return taken;
    }
}
