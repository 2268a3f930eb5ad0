package io.sluice.server.ws.load;

import io.sluice.server.ws.FanOutLane;
import io.sluice.server.ws.load.FanOutGates.Gate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The gates of a full run (one with the all-fast reference), decided from its rows and time series
 * alone, so that {@code report} computes them again from the committed CSVs. Per bounded lane
 * ({@code bounded}, {@code fixed}): every client in order; the server alive and every subscription
 * released; RSS <= idle + {@link #RSS_HEADROOM_BYTES} at every sample; the bytes the server holds
 * within the byte cap times the clients at every sample and the kernel send queues not growing
 * (their peak over the second half of the samples at most {@link #SEND_QUEUE_GROWTH} times their
 * peak over the first half); messages/s at least {@link #THROUGHPUT_SHARE} times the unbounded
 * lane's over the window before that lane degraded, warm-up left out ({@link Degradation}); fast clients' p99 at most
 * {@link #LATENCY_FACTOR} times the all-fast run's. The unbounded control: its server ran out of
 * memory, or the bytes it holds end above {@link FanOutGates#UNBOUNDED_GROWTH_CAPS} byte caps per
 * slow client and still grow (their mean over the last quarter of the samples above the mean over
 * the second quarter).
 */
final class FanOutFullGates {

    static final long RSS_HEADROOM_BYTES = 256L * 1024 * 1024;
    static final double THROUGHPUT_SHARE = 0.9;
    static final double LATENCY_FACTOR = 2;
    static final double SEND_QUEUE_GROWTH = 1.25;
    /** Kernel send-queue slack under which growth is noise: one 64 KiB socket buffer. */
    static final long SEND_QUEUE_SLACK_BYTES = 64 * 1024;

    private FanOutFullGates() {
    }

    static List<Gate> evaluate(List<LaneResult> results, List<LaneSample> samples) {
        Map<String, List<LaneSample>> series = samples.stream()
                .collect(Collectors.groupingBy(LaneSample::lane, Collectors.toList()));
        Optional<LaneResult> unbounded = find(results, FanOutLane.UNBOUNDED.flag());
        Optional<LaneResult> allFast = find(results, LaneResult.ALL_FAST);
        Optional<Degradation> degradation = unbounded.map(control ->
                Degradation.of(series.getOrDefault(control.lane(), List.of()), control.idleRssBytes()));
        List<Gate> gates = new ArrayList<>();
        for (LaneResult result : results) {
            String lane = result.lane();
            List<LaneSample> mine = series.getOrDefault(lane, List.of());
            gates.add(new Gate(lane, "every client in order, no gap, no duplicate",
                    result.gaps() == 0 && result.duplicates() == 0 && result.clientError().isEmpty(),
                    "gaps " + result.gaps() + ", duplicates " + result.duplicates()
                            + (result.clientError().isEmpty() ? "" : ", error " + result.clientError())));
            if (lane.equals(FanOutLane.UNBOUNDED.flag())) {
                gates.add(unboundedGrows(result, mine));
                continue;
            }
            gates.add(new Gate(lane, "server alive", result.serverDeath().isEmpty(),
                    result.serverDeath().isEmpty() ? "ran to the end" : "died: " + result.serverDeath()));
            gates.add(new Gate(lane, "every subscription released after the clients closed",
                    result.released() == result.clients(), result.released() + " of " + result.clients()));
            if (result.allFast()) {
                continue;
            }
            long rssLimit = result.idleRssBytes() + RSS_HEADROOM_BYTES;
            gates.add(new Gate(lane, "RSS <= idle + 256 MiB for the whole run", result.peakRssBytes() <= rssLimit,
                    String.format(Locale.ROOT, "peak %.1f MiB, idle %.1f MiB", LaneResult.mib(result.peakRssBytes()),
                            LaneResult.mib(result.idleRssBytes()))));
            gates.add(sendQueuesBounded(result, mine));
            unbounded.filter(control -> degradation.get().seconds() > 0).ifPresent(control ->
                    gates.add(throughput(result, mine, series.getOrDefault(control.lane(), List.of()), degradation.get())));
            allFast.ifPresent(reference -> gates.add(new Gate(lane, "fast clients' p99 <= " + (int) LATENCY_FACTOR
                    + "x the all-fast run's", result.fastP99Micros() <= LATENCY_FACTOR * reference.fastP99Micros(),
                    String.format(Locale.ROOT, "%.2f ms vs %.2f ms", result.fastP99Micros() / 1e3,
                            reference.fastP99Micros() / 1e3))));
        }
        return gates;
    }

    private static Optional<LaneResult> find(List<LaneResult> results, String lane) {
        return results.stream().filter(result -> result.lane().equals(lane)).findFirst();
    }

    private static Gate sendQueuesBounded(LaneResult result, List<LaneSample> series) {
        long cap = FanOutLane.BOUNDED_MAX_QUEUED_BYTES * result.clients();
        int half = series.size() / 2;
        long firstHalf = peak(series.subList(0, half));
        long secondHalf = peak(series.subList(half, series.size()));
        boolean held = result.peakQueuedBytes() >= 0 && result.peakQueuedBytes() <= cap;
        boolean kernelFlat = firstHalf >= 0 && secondHalf <= SEND_QUEUE_GROWTH * firstHalf + SEND_QUEUE_SLACK_BYTES;
        return new Gate(result.lane(), "send queues bounded: held <= byte cap x clients at every sample, kernel's not growing",
                held && kernelFlat, String.format(Locale.ROOT, "held peak %.2f MiB <= %.2f MiB; kernel peak %.2f MiB in the"
                        + " first half, %.2f MiB in the second", LaneResult.mib(result.peakQueuedBytes()),
                        LaneResult.mib(cap), LaneResult.mib(firstHalf), LaneResult.mib(secondHalf)));
    }

    private static long peak(List<LaneSample> samples) {
        return samples.stream().mapToLong(LaneSample::sendQueueBytes).max().orElse(-1);
    }

    private static Gate throughput(LaneResult result, List<LaneSample> mine, List<LaneSample> control,
                                   Degradation degradation) {
        double rate = degradation.rate(mine);
        double controlRate = degradation.rate(control);
        return new Gate(result.lane(), "messages/s >= " + THROUGHPUT_SHARE + "x the unbounded lane's before it degrades",
                rate >= THROUGHPUT_SHARE * controlRate, String.format(Locale.ROOT,
                        "%.0f vs %.0f %s; the unbounded lane %s", rate, controlRate, degradation.window(),
                        degradation.reason()));
    }

    private static Gate unboundedGrows(LaneResult result, List<LaneSample> series) {
        boolean outOfMemory = result.serverDeath().equals("OutOfMemoryError");
        long bound = (long) (FanOutGates.UNBOUNDED_GROWTH_CAPS * FanOutLane.BOUNDED_MAX_QUEUED_BYTES * result.slowClients());
        int quarter = series.size() / 4;
        double second = meanQueued(series.subList(quarter, 2 * quarter));
        double last = meanQueued(series.subList(series.size() - quarter, series.size()));
        boolean grows = result.queuedBytesAtEnd() > bound && quarter > 0 && last > second;
        return new Gate(result.lane(), "runs out of memory or grows without bound", outOfMemory || grows,
                outOfMemory ? "died: OutOfMemoryError" : String.format(Locale.ROOT,
                        "held %.1f MiB at the end (bound %.1f MiB), mean %.1f MiB in the second quarter, %.1f MiB in the"
                                + " last%s", LaneResult.mib(result.queuedBytesAtEnd()), LaneResult.mib(bound),
                        second / (1024 * 1024), last / (1024 * 1024),
                        result.serverDeath().isEmpty() ? "" : "; died: " + result.serverDeath()));
    }

    private static double meanQueued(List<LaneSample> samples) {
        return samples.stream().mapToLong(LaneSample::queuedBytes).filter(bytes -> bytes >= 0).average().orElse(Double.NaN);
    }
}
