package io.sluice.server.ws.load;

import io.sluice.server.ws.FanOutLane;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What one run of the fan-out harness does.
 *
 * @param lanes the lanes, one fresh server JVM each, in this order
 * @param clients connections per lane
 * @param slowShare the share of slow clients
 * @param slowDelayMillis a slow client's pause per message
 * @param loadTime the most load time per lane
 * @param maxMessages the most messages per lane (the run stops at whichever limit comes first)
 * @param messagesPerSecond the generator's total rate, 0 for as fast as it goes
 * @param serverHeap the server's -Xmx
 * @param sendBufferBytes the server's {@code SO_SNDBUF} per connection, 0 for the system's default
 * @param results where to write the raw CSV, or null
 */
record FanOutRun(List<FanOutLane> lanes, int clients, double slowShare, long slowDelayMillis, Duration loadTime,
                 long maxMessages, double messagesPerSecond, String serverHeap, int sendBufferBytes, Path results) {

    /** The seed's shape: 1,000 clients, 10% slow at 200 ms per message, up to 100 million messages or 60 s. */
    static FanOutRun defaults() {
        return new FanOutRun(List.of(FanOutLane.values()), 1000, 0.1, 200, Duration.ofSeconds(60), 100_000_000L,
                0, "1g", 0, null);
    }

    /**
     * Seconds of load for CI: 20 clients, 2 slow, a paced generator so the unbounded lane grows
     * without dying, and 16 KiB kernel send buffers so that seconds of load fill them.
     */
    static FanOutRun smoke() {
        return new FanOutRun(List.of(FanOutLane.values()), 20, 0.1, 200, Duration.ofSeconds(3), 10_000_000L,
                40_000, "256m", 16 * 1024, null);
    }

    FanOutRun withResults(Path directory) {
        return new FanOutRun(lanes, clients, slowShare, slowDelayMillis, loadTime, maxMessages, messagesPerSecond,
                serverHeap, sendBufferBytes, directory);
    }

    /** This run with its flags applied ({@code --clients N --slow-share F --slow-delay-ms N --seconds N --max-messages N --rate F --heap S --send-buffer N --lanes a,b --results DIR}). */
    FanOutRun withFlags(String[] args) {
        FanOutRun run = this;
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("flag " + args[i] + " needs a value");
            }
            String value = args[i + 1];
            run = switch (args[i]) {
                case "--clients" -> new FanOutRun(run.lanes, Integer.parseInt(value), run.slowShare, run.slowDelayMillis,
                        run.loadTime, run.maxMessages, run.messagesPerSecond, run.serverHeap, run.sendBufferBytes, run.results);
                case "--slow-share" -> new FanOutRun(run.lanes, run.clients, Double.parseDouble(value), run.slowDelayMillis,
                        run.loadTime, run.maxMessages, run.messagesPerSecond, run.serverHeap, run.sendBufferBytes, run.results);
                case "--slow-delay-ms" -> new FanOutRun(run.lanes, run.clients, run.slowShare, Long.parseLong(value),
                        run.loadTime, run.maxMessages, run.messagesPerSecond, run.serverHeap, run.sendBufferBytes, run.results);
                case "--seconds" -> new FanOutRun(run.lanes, run.clients, run.slowShare, run.slowDelayMillis,
                        Duration.ofSeconds(Long.parseLong(value)), run.maxMessages, run.messagesPerSecond, run.serverHeap, run.sendBufferBytes, run.results);
                case "--max-messages" -> new FanOutRun(run.lanes, run.clients, run.slowShare, run.slowDelayMillis,
                        run.loadTime, Long.parseLong(value), run.messagesPerSecond, run.serverHeap, run.sendBufferBytes, run.results);
                case "--rate" -> new FanOutRun(run.lanes, run.clients, run.slowShare, run.slowDelayMillis,
                        run.loadTime, run.maxMessages, Double.parseDouble(value), run.serverHeap, run.sendBufferBytes, run.results);
                case "--heap" -> new FanOutRun(run.lanes, run.clients, run.slowShare, run.slowDelayMillis,
                        run.loadTime, run.maxMessages, run.messagesPerSecond, value, run.sendBufferBytes, run.results);
                case "--lanes" -> new FanOutRun(List.of(value.split(",")).stream().map(FanOutLane::parse).toList(),
                        run.clients, run.slowShare, run.slowDelayMillis, run.loadTime, run.maxMessages,
                        run.messagesPerSecond, run.serverHeap, run.sendBufferBytes, run.results);
                case "--send-buffer" -> new FanOutRun(run.lanes, run.clients, run.slowShare, run.slowDelayMillis,
                        run.loadTime, run.maxMessages, run.messagesPerSecond, run.serverHeap, Integer.parseInt(value), run.results);
                case "--results" -> run.withResults(Path.of(value));
                default -> throw new IllegalArgumentException("unknown flag " + args[i] + " (flags: --clients --slow-share"
                        + " --slow-delay-ms --seconds --max-messages --rate --heap --send-buffer --lanes --results; --smoke first for smoke scale)");
            };
        }
        if (run.clients < 1 || !(run.slowShare >= 0 && run.slowShare <= 1) || run.loadTime.isNegative() || run.maxMessages < 1) {
            throw new IllegalArgumentException("clients >= 1, slow share in [0, 1], seconds >= 0, max messages >= 1: " + run);
        }
        return run;
    }
}
