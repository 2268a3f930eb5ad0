/**
 * The demand SPI: how many items a writer requests from its upstream, and when.
 *
 * <h2>Threading</h2>
 * A {@link io.sluice.demand.DemandStrategy} is immutable and may be shared by any number of
 * writes on any threads. Each write calls {@link io.sluice.demand.DemandStrategy#newController()}
 * once; the {@link io.sluice.demand.DemandController} it gets is called only from that write's
 * drain (one thread at a time, each call happening-after the previous one), so controllers need no
 * synchronisation and must not be shared.
 *
 * <h2>Backpressure</h2>
 * The writer forwards what a controller asks for to {@code Subscription.request}, clamped by its
 * byte cap ({@link io.sluice.demand.DemandState#requestLimit()}), for every strategy except
 * {@link io.sluice.demand.Demand#unbounded()}. Every bounded strategy here keeps queued plus
 * outstanding items within its window; the bytes a write may hold are stated in
 * {@link io.sluice.WriteOptions}.
 */
package io.sluice.demand;
