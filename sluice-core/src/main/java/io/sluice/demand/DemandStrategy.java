package io.sluice.demand;

/**
 * A shareable, immutable demand policy; each write gets its own {@link DemandController}.
 * Factories for the built-in strategies are in {@link Demand}.
 *
 * <p><b>Threading:</b> implementations must be immutable and safe to share between threads.
 *
 * <p><b>Backpressure:</b> the strategy's controllers decide each write's demand; see
 * {@link DemandController}.
 *
 * <p><b>Resources:</b> a strategy should hold no per-write state; that belongs in the controller.
 *
 * <p><b>Errors:</b> an exception from {@link #newController()} propagates from the write call that
 * started the write (see below), before anything is subscribed or opened.
 */
public interface DemandStrategy {

    /**
     * Creates the per-write controller; called once per write, on the thread that starts the
     * write (the controller is then used only from the write's drain).
     *
     * @return a new controller, not shared with any other write
     */
    DemandController newController();
}
