/**
 * WebSocket fan-out to slow clients: a shared {@link io.sluice.server.ws.MessageGenerator} feeds
 * each client's {@link io.sluice.server.ws.SessionSubscriber}, which writes to its Jetty session
 * under sluice's demand rules.
 *
 * <p><b>Threading.</b> The generator's one thread calls every subscriber's {@code onNext}; a
 * subscription is scheduled on it at most once at a time, so each client's signals are serial
 * (§1.3). Each subscriber's decisions (the ledger's driving side, every call on its upstream
 * subscription, every {@code sendBinary}) run inside Jetty's {@code IteratingCallback.process()},
 * which runs one at a time per subscriber on whichever thread iterated it (the generator's, or
 * Jetty's after a send completed). Jetty's threads call the endpoint's open and close.
 */
package io.sluice.server.ws;
