package io.sluice.s3.internal;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Runs the events submitted from any thread one at a time, in submission order, on the thread that
 * finds the drain idle: the state those events touch is confined to "the drain" although the threads
 * running it change. The core's {@code SerialDrain} does the same for the core, but it lives in a
 * package module {@code io.sluice} does not export, so this module has its own: a queue of events
 * rather than a pass, because here the events come from three parties (upstream, the SDK, the
 * stage's caller) and each carries its own data.
 *
 * <p>Invariants:
 * <ul>
 *   <li>D1: {@code pending > 0} exactly while a thread runs the drain; only the thread moving it from
 *       0 to 1 runs events, so no two events ever run concurrently.</li>
 *   <li>D2: the atomic counter orders the runs: each event happens-after every event run before
 *       it, so drain-confined fields need not be volatile.</li>
 *   <li>D3: an event submitted while an event runs (re-entrant: {@code request} calling
 *       {@code onNext}) is queued and run by the loop already on the stack: the stack stays flat.</li>
 *   <li>D4: an event that throws (a bug) is handed to the failure callback, as the drain, and the
 *       loop goes on: the operation ends instead of hanging.</li>
 * </ul>
 */
public final class Drain {

    private final Queue<Runnable> events = new ConcurrentLinkedQueue<>();   // any thread -> drain
    private final AtomicInteger pending = new AtomicInteger();              // events submitted, not yet run (D1)
    private final Consumer<Throwable> onFailure;                            // runs as the drain (D4)

    /**
     * Creates an idle drain.
     *
     * @param onFailure runs, as the drain, with what an event threw
     */
    public Drain(Consumer<Throwable> onFailure) {
        this.onFailure = onFailure;
    }

    /** Queues {@code event}; runs it (and whatever is queued) now if no thread is draining. */
    public void submit(Runnable event) {
        events.add(event);
        if (pending.getAndIncrement() != 0) {
            return;                                  // D1, D3: the draining thread will run it
        }
        do {
            Runnable next = events.poll();           // never null: added before counted
            try {
                next.run();
            } catch (Throwable t) {
                onFailure.accept(t);                 // D4
            }
        } while (pending.decrementAndGet() != 0);
    }
}
