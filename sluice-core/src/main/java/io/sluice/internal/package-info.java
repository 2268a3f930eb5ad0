/**
 * Internals: publishers, writers, sources and sinks, the drain idiom. Not exported.
 *
 * <h2>Threading</h2>
 * Every stateful object here has one drain ({@link io.sluice.internal.SerialDrain}); fields are
 * marked {@code // drain-confined} (touched only by passes), {@code // any thread -> drain} (set by
 * signal methods, read by passes; volatile or atomic), or final. Reactive Streams signals to a
 * subscriber are sent only from the drain (after {@code onSubscribe}, which the subscribing thread
 * sends while the drain is held: §1.3), and every call on an upstream subscription is made from
 * the drain (§2.7).
 */
package io.sluice.internal;
