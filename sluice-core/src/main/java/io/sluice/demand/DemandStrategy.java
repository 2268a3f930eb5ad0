package io.sluice.demand;

/**
 * A shareable, immutable demand policy; each write gets its own {@link DemandController}.
 * Factories for the built-in strategies are in {@link Demand}.
 *
 * <p><b>Threading:</b> implementations must be immutable and safe to share between threads.
 */
public interface DemandStrategy {

    /** Creates the per-write controller; called once per write, from the write's drain. */
    DemandController newController();
}
