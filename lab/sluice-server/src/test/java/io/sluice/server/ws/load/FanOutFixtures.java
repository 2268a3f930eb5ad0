package io.sluice.server.ws.load;

import io.sluice.server.ws.FanOutLane;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A made-up full fan-out run (1,000 clients, 100 slow, 20 s per lane) whose every full gate
 * passes: the bounded lanes deliver 950,000 and 920,000 msg/s in a flat 150 MiB over idle; the
 * unbounded lane delivers 1,000,000 msg/s for 10 s, then 200,000, its held bytes growing 20 MiB/s,
 * until it dies of OutOfMemoryError at 15 s; the all-fast run's p99 is 5 ms. Every lane that ran to
 * its end had all its clients connected then; one repeat. Every lane's server spends 0.35 s of user
 * and 0.25 s of system CPU per second of load and one write system call per 20 messages, and the
 * clients 0.8 s of CPU per second.
 */
public final class FanOutFixtures {

    static final double STEP_SECONDS = 0.25;
    static final long MIB = 1024 * 1024;
    static final long IDLE_RSS = 100 * MIB;

    private FanOutFixtures() {}

    static LaneResult result(
            String lane,
            int slow,
            double messagesPerSecond,
            double seconds,
            long p99Micros,
            long peakRss,
            long queuedAtEnd,
            String death) {
        long messages = (long) (messagesPerSecond * seconds);
        long slowMessages = slow * 5L * (long) seconds;
        return new LaneResult(
                lane,
                1000,
                slow,
                seconds,
                messages - slowMessages,
                slowMessages,
                0,
                0,
                "",
                900,
                p99Micros,
                2 * p99Micros,
                IDLE_RSS,
                peakRss,
                40 * MIB,
                queuedAtEnd,
                Math.max(queuedAtEnd, 6 * MIB),
                70 * MIB,
                0.6 * seconds,
                1000,
                0.05,
                "abc1234",
                "25.0.1+8-LTS",
                death,
                death.isEmpty() ? 1000 : -1,
                1,
                new ProcessCost(0.35 * seconds, 0.25 * seconds, messages / 20, 0.8 * seconds));
    }

    /** {@code result} as a row of another repeat. */
    static LaneResult inRepeat(LaneResult result, int repeat) {
        return new LaneResult(
                result.lane(),
                result.clients(),
                result.slowClients(),
                result.seconds(),
                result.fastMessages(),
                result.slowMessages(),
                result.gaps(),
                result.duplicates(),
                result.clientError(),
                result.fastP50Micros(),
                result.fastP99Micros(),
                result.fastP999Micros(),
                result.idleRssBytes(),
                result.peakRssBytes(),
                result.heapAfterGcBytes(),
                result.queuedBytesAtEnd(),
                result.peakQueuedBytes(),
                result.peakSendQueueBytes(),
                result.serverCpuSeconds(),
                result.released(),
                result.othersBusy(),
                result.commit(),
                result.jdk(),
                result.serverDeath(),
                result.subscribersAtEnd(),
                repeat,
                result.cost());
    }

    /** {@code result} with {@code live} subscribers at the end of its load. */
    static LaneResult withLive(LaneResult result, long live) {
        return new LaneResult(
                result.lane(),
                result.clients(),
                result.slowClients(),
                result.seconds(),
                result.fastMessages(),
                result.slowMessages(),
                result.gaps(),
                result.duplicates(),
                result.clientError(),
                result.fastP50Micros(),
                result.fastP99Micros(),
                result.fastP999Micros(),
                result.idleRssBytes(),
                result.peakRssBytes(),
                result.heapAfterGcBytes(),
                result.queuedBytesAtEnd(),
                result.peakQueuedBytes(),
                result.peakSendQueueBytes(),
                result.serverCpuSeconds(),
                result.released(),
                result.othersBusy(),
                result.commit(),
                result.jdk(),
                result.serverDeath(),
                live,
                result.repeat(),
                result.cost());
    }

    /** {@code result} with {@code cost} for its load. */
    static LaneResult withCost(LaneResult result, ProcessCost cost) {
        return new LaneResult(
                result.lane(),
                result.clients(),
                result.slowClients(),
                result.seconds(),
                result.fastMessages(),
                result.slowMessages(),
                result.gaps(),
                result.duplicates(),
                result.clientError(),
                result.fastP50Micros(),
                result.fastP99Micros(),
                result.fastP999Micros(),
                result.idleRssBytes(),
                result.peakRssBytes(),
                result.heapAfterGcBytes(),
                result.queuedBytesAtEnd(),
                result.peakQueuedBytes(),
                result.peakSendQueueBytes(),
                result.serverCpuSeconds(),
                result.released(),
                result.othersBusy(),
                result.commit(),
                result.jdk(),
                result.serverDeath(),
                result.subscribersAtEnd(),
                result.repeat(),
                cost);
    }

    /** {@code result} with {@code serverCpuSeconds} (NaN: a server that died before it was read). */
    static LaneResult withServerCpu(LaneResult result, double serverCpuSeconds) {
        return new LaneResult(
                result.lane(),
                result.clients(),
                result.slowClients(),
                result.seconds(),
                result.fastMessages(),
                result.slowMessages(),
                result.gaps(),
                result.duplicates(),
                result.clientError(),
                result.fastP50Micros(),
                result.fastP99Micros(),
                result.fastP999Micros(),
                result.idleRssBytes(),
                result.peakRssBytes(),
                result.heapAfterGcBytes(),
                result.queuedBytesAtEnd(),
                result.peakQueuedBytes(),
                result.peakSendQueueBytes(),
                serverCpuSeconds,
                result.released(),
                result.othersBusy(),
                result.commit(),
                result.jdk(),
                result.serverDeath(),
                result.subscribersAtEnd(),
                result.repeat(),
                result.cost());
    }

    /** {@code sample} as one of another repeat. */
    static LaneSample inRepeat(LaneSample sample, int repeat) {
        return new LaneSample(
                sample.lane(),
                sample.seconds(),
                sample.messages(),
                sample.fastMessages(),
                sample.rssBytes(),
                sample.heapUsedBytes(),
                sample.queuedBytes(),
                sample.sendQueueBytes(),
                repeat);
    }

    /** A steady lane: {@code messagesPerSecond} from the start, RSS flat at idle + {@code overIdle}. */
    static List<LaneSample> steady(String lane, double messagesPerSecond, double seconds, long overIdle) {
        List<LaneSample> series = new ArrayList<>();
        for (int i = 1; i * STEP_SECONDS <= seconds + 1e-9; i++) {
            double elapsedSeconds = i * STEP_SECONDS;
            long messages = (long) (messagesPerSecond * elapsedSeconds);
            series.add(new LaneSample(
                    lane,
                    elapsedSeconds,
                    messages,
                    messages * 9 / 10,
                    IDLE_RSS + overIdle,
                    60 * MIB,
                    5 * MIB,
                    70 * MIB,
                    1));
        }
        return series;
    }

    /** The unbounded control: 1,000,000 msg/s for 10 s, then 200,000; held bytes and RSS grow 20 MiB/s; 15 s. */
    static List<LaneSample> unbounded() {
        List<LaneSample> series = new ArrayList<>();
        for (int i = 1; i * STEP_SECONDS <= 15 + 1e-9; i++) {
            double elapsedSeconds = i * STEP_SECONDS;
            long messages = (long)
                    (elapsedSeconds <= 10 ? 1_000_000 * elapsedSeconds : 10_000_000 + 200_000 * (elapsedSeconds - 10));
            long grown = (long) (20 * MIB * elapsedSeconds);
            series.add(new LaneSample(
                    "unbounded",
                    elapsedSeconds,
                    messages,
                    messages * 9 / 10,
                    IDLE_RSS + grown,
                    60 * MIB + grown,
                    grown,
                    300 * MIB,
                    1));
        }
        return series;
    }

    static List<LaneResult> results() {
        return List.of(
                result("bounded", 100, 950_000, 20, 8_000, IDLE_RSS + 150 * MIB, 5 * MIB, ""),
                result("fixed", 100, 920_000, 20, 9_000, IDLE_RSS + 150 * MIB, 5 * MIB, ""),
                result("unbounded", 100, 700_000, 15, 30_000, IDLE_RSS + 300 * MIB, -1, "OutOfMemoryError"),
                result(LaneResult.ALL_FAST, 0, 990_000, 20, 5_000, IDLE_RSS + 120 * MIB, 1 * MIB, ""));
    }

    static List<LaneSample> samples() {
        List<LaneSample> samples = new ArrayList<>(steady("bounded", 950_000, 20, 150 * MIB));
        samples.addAll(steady("fixed", 920_000, 20, 150 * MIB));
        samples.addAll(unbounded());
        samples.addAll(steady(LaneResult.ALL_FAST, 990_000, 20, 120 * MIB));
        return samples;
    }

    /** Writes the run into {@code folder} as the harness would: websocket.csv and websocket-series.csv. */
    public static Path write(Path folder) throws IOException {
        Files.createDirectories(folder);
        List<String> rows = new ArrayList<>(List.of(LaneResult.CSV_HEADER));
        results().forEach(result -> rows.add(result.csvRow()));
        Files.write(folder.resolve(LaneResult.FILE), rows);
        List<String> series = new ArrayList<>(List.of(LaneSample.CSV_HEADER));
        samples().forEach(sample -> series.add(sample.csvRow()));
        Files.write(folder.resolve(LaneSample.FILE), series);
        return folder;
    }

    /** The bounded lanes' flags, for tests that vary one lane. */
    static List<String> boundedLanes() {
        return List.of(FanOutLane.BOUNDED.flag(), FanOutLane.FIXED.flag());
    }
}
