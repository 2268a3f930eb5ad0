/**
 * The fan-out load harness ({@link io.sluice.server.ws.load.FanOutLoadMain}, loopback only) and its
 * report ({@link io.sluice.server.ws.load.FanOutReport}).
 *
 * <p><b>Threading.</b> Jetty's client threads call each {@code ClientEndpoint} one frame at a time;
 * one timer thread makes the slow clients' delayed demands; the harness thread samples the server
 * from outside ({@code /proc}, {@code /stats}) and reads the clients' totals; a daemon watchdog
 * thread stops the whole command when it outlasts its budget. The report side is single-threaded.
 */
package io.sluice.server.ws.load;
