package io.sluice.server.ws.load;

import io.sluice.server.ws.FanOutLane;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * What one run of the fan-out harness does (lab/docs/WEBSOCKET.md describes each flag).
 *
 * @param lanes the lanes, one fresh server JVM each, in this order
 * @param slowDelayMillis a slow client's pause per message
 * @param maxMessages the most messages per lane (the run stops at whichever limit comes first)
 * @param messagesPerSecond the generator's total rate, 0 for as fast as it goes
 * @param sendBufferBytes the server's {@code SO_SNDBUF} per connection, 0 for the system's default
 * @param allFastReference whether to run the bounded lane once more with every client fast, after
 *        the lanes: the reference for the fast clients' latency
 * @param budget the most the whole run may take from the command line, zero for no limit; unless
 *        given, it scales with the repeats
 * @param results where to write the raw CSVs, or null
 */
record FanOutRun(
        List<FanOutLane> lanes,
        int clients,
        double slowShare,
        long slowDelayMillis,
        Duration loadTime,
        long maxMessages,
        double messagesPerSecond,
        String serverHeap,
        int sendBufferBytes,
        boolean allFastReference,
        Duration budget,
        Path results,
        int repeats) {

    /** The flags {@link #withFlags} takes, each with a value. */
    static final List<String> FLAGS = List.of(
            "--clients",
            "--slow-share",
            "--slow-delay-ms",
            "--seconds",
            "--max-messages",
            "--rate",
            "--heap",
            "--send-buffer",
            "--lanes",
            "--all-fast",
            "--budget-seconds",
            "--results",
            "--repeats");
    /** The most one lane adds to its load time: a server start, 1,000 connects, the release check, the closes. */
    static final Duration LANE_OVERHEAD = Duration.ofSeconds(90);
    /** A full run's load per lane: the unbounded lane's kernel send queues fill in about 20 s, its heap grows after. */
    static final Duration FULL_LOAD_TIME = Duration.ofSeconds(120);
    /** A full run's {@code SO_SNDBUF}: Linux doubles it to 704 KiB of send queue, the 710-725 KB the seed saw. */
    static final int FULL_SEND_BUFFER_BYTES = 352 * 1024;
    /** A full run's server heap: the bounded lanes live in about 10 MiB; the unbounded lane runs out of it. */
    static final String FULL_HEAP = "256m";

    /** The published run: the seed's shape (1,000 clients, 10% slow at 200 ms per message) and the all-fast reference. */
    static FanOutRun defaults() {
        return new FanOutRun(
                FanOutLane.defaults(),
                1000,
                0.1,
                200,
                FULL_LOAD_TIME,
                100_000_000L,
                0,
                FULL_HEAP,
                FULL_SEND_BUFFER_BYTES,
                true,
                Duration.ofMinutes(15),
                null,
                1);
    }

    /** Seconds of load for CI: a paced generator, and kernel send buffers small enough to fill in seconds. */
    static FanOutRun smoke() {
        return new FanOutRun(
                FanOutLane.defaults(),
                20,
                0.1,
                200,
                Duration.ofSeconds(3),
                10_000_000L,
                40_000,
                "256m",
                16 * 1024,
                false,
                Duration.ofMinutes(3),
                null,
                1);
    }

    /** This run with its flags ({@link #FLAGS}) applied. */
    FanOutRun withFlags(String[] args) {
        Map<String, String> flags = new HashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("flag " + args[i] + " needs a value");
            }
            if (!FLAGS.contains(args[i])) {
                throw new IllegalArgumentException("unknown flag " + args[i] + " (flags: " + String.join(" ", FLAGS)
                        + "; --smoke first for smoke scale)");
            }
            flags.put(args[i], args[i + 1]);
        }
        int repeats = parse(flags, "--repeats", Integer::parseInt, this.repeats);
        FanOutRun run = new FanOutRun(
                parse(
                        flags,
                        "--lanes",
                        value -> Stream.of(value.split(","))
                                .map(FanOutLane::parse)
                                .toList(),
                        lanes),
                parse(flags, "--clients", Integer::parseInt, clients),
                parse(flags, "--slow-share", Double::parseDouble, slowShare),
                parse(flags, "--slow-delay-ms", Long::parseLong, slowDelayMillis),
                parse(flags, "--seconds", value -> Duration.ofSeconds(Long.parseLong(value)), loadTime),
                parse(flags, "--max-messages", Long::parseLong, maxMessages),
                parse(flags, "--rate", Double::parseDouble, messagesPerSecond),
                parse(flags, "--heap", value -> value, serverHeap),
                parse(flags, "--send-buffer", Integer::parseInt, sendBufferBytes),
                parse(flags, "--all-fast", Boolean::parseBoolean, allFastReference),
                // the default budget is per repeat
                parse(
                        flags,
                        "--budget-seconds",
                        value -> Duration.ofSeconds(Long.parseLong(value)),
                        budget.dividedBy(this.repeats).multipliedBy(repeats)),
                parse(flags, "--results", Path::of, results),
                repeats);
        if (run.clients < 1
                || !(run.slowShare >= 0 && run.slowShare <= 1)
                || run.loadTime.isNegative()
                || run.maxMessages < 1
                || repeats < 1) {
            throw new IllegalArgumentException("clients >= 1, slow share in [0, 1], seconds >= 0, max messages >= 1,"
                    + " repeats >= 1: " + run.clients + ", " + run.slowShare + ", " + run.loadTime + ", "
                    + run.maxMessages + ", " + repeats);
        }
        return run;
    }

    private static <T> T parse(Map<String, String> flags, String flag, Function<String, T> parser, T otherwise) {
        String value = flags.get(flag);
        return value == null ? otherwise : parser.apply(value);
    }

    /** The runs of one server JVM each: the lanes, and the all-fast reference if wanted, in every repeat. */
    int serverRuns() {
        return (lanes.size() + (allFastReference ? 1 : 0)) * repeats;
    }

    /** The longest this run should take: every server run's load time plus {@link #LANE_OVERHEAD}. */
    Duration expectedLongest() {
        return loadTime.plus(LANE_OVERHEAD).multipliedBy(serverRuns());
    }
}
