/**
 * The fan-out load harness: {@link io.sluice.server.ws.load.FanOutLoadMain} runs in its own JVM as
 * the load client (Jetty's WebSocket client, loopback only), starts a fresh server JVM per lane
 * (and one for the all-fast reference), prints each lane's figures and the gates, and writes the
 * raw CSVs; {@link io.sluice.server.ws.load.FanOutReport} reads them back for
 * {@code sluice-server report}, which computes the same gates again and draws the charts.
 *
 * <p><b>Threading.</b> Jetty's client threads call each {@code ClientEndpoint} one frame at a time;
 * one timer thread makes the slow clients' delayed demands; the harness thread samples the server
 * from outside ({@code /proc}, {@code /stats}) and reads the clients' totals; a daemon watchdog
 * thread stops the whole command when it outlasts its budget. The report side is single-threaded.
 */
package io.sluice.server.ws.load;
