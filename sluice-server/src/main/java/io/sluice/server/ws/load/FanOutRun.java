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
 * @param allFastReference whether to run the bounded lane once more with every client fast, after
 *        the lanes: the reference for the fast clients' latency
 * @param results where to write the raw CSVs, or null
 */
record FanOutRun(List<FanOutLane> lanes, int clients, double slowShare, long slowDelayMillis, Duration loadTime,
                 long maxMessages, double messagesPerSecond, String serverHeap, int sendBufferBytes,
                 boolean allFastReference, Path results) {

    /**
     * The seed's shape: 1,000 clients, 10% slow at 200 ms per message, up to 100 million messages or
     * 60 s per lane, and the all-fast reference run.
     */
    static FanOutRun defaults() {
        return new FanOutRun(List.of(FanOutLane.values()), 1000, 0.1, 200, Duration.ofSeconds(60), 100_000_000L,
                0, "1g", 0, true, null);
    }

    /**
     * Seconds of load for CI: 20 clients, 2 slow, a paced generator so the unbounded lane grows
     * without dying, and 16 KiB kernel send buffers so that seconds of load fill them; no all-fast run.
     */
    static FanOutRun smoke() {
        return new FanOutRun(List.of(FanOutLane.values()), 20, 0.1, 200, Duration.ofSeconds(3), 10_000_000L,
                40_000, "256m", 16 * 1024, false, null);
    }

    FanOutRun withResults(Path directory) {
        return new FanOutRun(lanes, clients, slowShare, slowDelayMillis, loadTime, maxMessages, messagesPerSecond,
                serverHeap, sendBufferBytes, allFastReference, directory);
    }

    /**
     * This run with its flags applied ({@code --clients N --slow-share F --slow-delay-ms N --seconds N
     * --max-messages N --rate F --heap S --send-buffer N --lanes a,b --all-fast true|false --results DIR}).
     */
    FanOutRun withFlags(String[] args) {
        List<FanOutLane> lanes = this.lanes;
        int clients = this.clients;
        double slowShare = this.slowShare;
        long slowDelayMillis = this.slowDelayMillis;
        Duration loadTime = this.loadTime;
        long maxMessages = this.maxMessages;
        double messagesPerSecond = this.messagesPerSecond;
        String serverHeap = this.serverHeap;
        int sendBufferBytes = this.sendBufferBytes;
        boolean allFastReference = this.allFastReference;
        Path results = this.results;
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("flag " + args[i] + " needs a value");
            }
            String value = args[i + 1];
            switch (args[i]) {
                case "--clients" -> clients = Integer.parseInt(value);
                case "--slow-share" -> slowShare = Double.parseDouble(value);
                case "--slow-delay-ms" -> slowDelayMillis = Long.parseLong(value);
                case "--seconds" -> loadTime = Duration.ofSeconds(Long.parseLong(value));
                case "--max-messages" -> maxMessages = Long.parseLong(value);
                case "--rate" -> messagesPerSecond = Double.parseDouble(value);
                case "--heap" -> serverHeap = value;
                case "--lanes" -> lanes = List.of(value.split(",")).stream().map(FanOutLane::parse).toList();
                case "--send-buffer" -> sendBufferBytes = Integer.parseInt(value);
                case "--all-fast" -> allFastReference = Boolean.parseBoolean(value);
                case "--results" -> results = Path.of(value);
                default -> throw new IllegalArgumentException("unknown flag " + args[i] + " (flags: --clients --slow-share"
                        + " --slow-delay-ms --seconds --max-messages --rate --heap --send-buffer --lanes --all-fast"
                        + " --results; --smoke first for smoke scale)");
            }
        }
        if (clients < 1 || !(slowShare >= 0 && slowShare <= 1) || loadTime.isNegative() || maxMessages < 1) {
            throw new IllegalArgumentException("clients >= 1, slow share in [0, 1], seconds >= 0, max messages >= 1: "
                    + clients + ", " + slowShare + ", " + loadTime + ", " + maxMessages);
        }
        return new FanOutRun(lanes, clients, slowShare, slowDelayMillis, loadTime, maxMessages, messagesPerSecond,
                serverHeap, sendBufferBytes, allFastReference, results);
    }
}
