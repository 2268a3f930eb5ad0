package io.sluice.s3.internal;

import io.sluice.internal.SerialDrain;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;

/**
 * One operation's events, submitted from any thread (upstream, the SDK's completion threads, the
 * stage's caller), each carrying its own data, and run one at a time in submission order on the
 * core's {@link SerialDrain}, on the thread that finds it idle: the state they touch is
 * drain-confined although the threads running it change.
 *
 * <p>Invariants:
 * <ul>
 *   <li>E1: events run on {@link SerialDrain} with a direct executor: never two at once (its D1),
 *       each after every event run before it (D2), and an event submitted from inside another
 *       (re-entrant: {@code request} calling {@code onNext}) is queued and run by the pass already
 *       on the stack, so the stack stays flat. An event is queued before the drain is signalled,
 *       so the pass that serves a signal finds its event.</li>
 *   <li>E2: an event that throws (a bug) is handed to the failure callback, as the drain, and the
 *       pass goes on: the operation's later events (a part or an abort that ends) still run, so it
 *       ends instead of hanging. The pass itself never throws unless the callback does; then the
 *       drain stays held (its D4) and the callback is told once more.</li>
 * </ul>
 */
public final class SerialEvents {

    private final Queue<Runnable> events = new ConcurrentLinkedQueue<>(); // any thread -> drain (E1)
    private final Consumer<Throwable> onFailure; // runs as the drain (E2)
    private final SerialDrain drain;

    /**
     * Creates an idle queue.
     *
     * @param onFailure runs, as the drain, with what an event threw; it should end the operation
     */
    public SerialEvents(Consumer<Throwable> onFailure) {
        this.onFailure = onFailure;
        this.drain = SerialDrain.of(Runnable::run, this::runQueued, onFailure, false);
    }

    /** Queues {@code event}; runs it (and whatever is queued) now if no thread is running events. */
    public void submit(Runnable event) {
        events.add(event); // E1: before the signal that serves it
        drain.signal();
    }

    /** One pass: every queued event, including those queued meanwhile. */
    private boolean runQueued() {
        for (Runnable event = events.poll(); event != null; event = events.poll()) {
            try {
                event.run();
            } catch (Throwable t) {
                onFailure.accept(t); // E2
            }
        }
        return false;
    }
}
