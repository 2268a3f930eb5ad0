/**
 * The fan-out load harness: {@link io.sluice.server.ws.load.FanOutLoadMain} runs in its own JVM as
 * the load client (Jetty's WebSocket client, loopback only), starts a fresh server JVM per lane,
 * prints each lane's figures and the smoke gates, and writes the raw CSV.
 *
 * <p><b>Threading.</b> Jetty's client threads call each {@code ClientEndpoint} one frame at a time;
 * one timer thread makes the slow clients' delayed demands; the harness thread samples the server
 * from outside ({@code /proc}, {@code /stats}) and reads the clients' totals.
 */
package io.sluice.server.ws.load;
