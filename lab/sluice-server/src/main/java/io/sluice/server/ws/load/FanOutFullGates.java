package io.sluice.server.ws.load;

import io.sluice.server.ws.FanOutLane;
import io.sluice.server.ws.load.FanOutGates.Gate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.stream.Stream;

/**
 * The gates of a full run (one with the all-fast reference), decided from its rows and time series
 * alone, so that {@code report} computes them again from the committed CSVs (lab/docs/WEBSOCKET.md lists
 * them). The two ratios, throughput against the unbounded lane before it degraded ({@link Degradation})
 * and fast clients' p99 against the all-fast run's, are decided over every repeat
 * ({@link FanOutGates#ratio}); the rest within each repeat ({@link FanOutGates#withinRepeat}).
 */
final class FanOutFullGates {

    static final long RSS_HEADROOM_BYTES = 256L * 1024 * 1024;
    static final double THROUGHPUT_SHARE = 0.9;
    static final double LATENCY_FACTOR = 2;
    /** The kernel send queues' peak over the second half of the samples at most this times the first half's. */
    static final double SEND_QUEUE_GROWTH = 1.25;
    /** Kernel send-queue slack under which growth is noise: one 64 KiB socket buffer. */
    static final long SEND_QUEUE_SLACK_BYTES = 64 * 1024;

    private FanOutFullGates() {}

    static List<Gate> evaluate(List<LaneResult> results, List<LaneSample> samples) {
        List<Gate> gates = new ArrayList<>(FanOutGates.everyRepeat(
                results, samples, (repeat, series) -> FanOutGates.withinRepeat(repeat, series, true)));
        List<String> lanes = results.stream()
                .filter(result -> !result.allFast() && !result.lane().equals(FanOutLane.UNBOUNDED.flag()))
                .map(LaneResult::lane)
                .distinct()
                .toList();
        for (String lane : lanes) {
            List<Gate> ratios = Stream.of(throughput(lane, results, samples), latency(lane, results))
                    .flatMap(Optional::stream)
                    .toList();
            int last = gates.stream().map(Gate::lane).toList().lastIndexOf(lane);
            gates.addAll(last + 1, ratios); // after the lane's other gates
        }
        return gates;
    }

    static Gate rssHeld(LaneResult result) {
        long rssLimit = result.idleRssBytes() + RSS_HEADROOM_BYTES;
        return new Gate(
                result.lane(),
                "RSS <= idle + 256 MiB for the whole run",
                result.peakRssBytes() <= rssLimit,
                String.format(
                        Locale.ROOT,
                        "peak %.1f MiB, idle %.1f MiB",
                        LaneResult.mib(result.peakRssBytes()),
                        LaneResult.mib(result.idleRssBytes())));
    }

    /**
     * Messages/s over the window before the unbounded lane degraded, the lane's over the control's
     * of the same repeat; empty when no repeat has both with a window.
     */
    private static Optional<Gate> throughput(String lane, List<LaneResult> results, List<LaneSample> samples) {
        return overRepeats(
                lane,
                "messages/s >= " + THROUGHPUT_SHARE + "x the unbounded lane's before it degrades",
                FanOutLane.UNBOUNDED.flag(),
                THROUGHPUT_SHARE,
                false,
                results,
                (mine, control) -> {
                    List<LaneSample> controlSeries = LaneSample.series(samples, control.lane(), control.repeat());
                    Degradation degradation = Degradation.of(controlSeries, control.idleRssBytes());
                    if (degradation.seconds() <= 0) {
                        return null;
                    }
                    double rate = degradation.rate(LaneSample.series(samples, mine.lane(), mine.repeat()));
                    double controlRate = degradation.rate(controlSeries);
                    return new Figures(
                            rate,
                            controlRate,
                            String.format(
                                    Locale.ROOT,
                                    "%.0f vs %.0f %s; the unbounded" + " lane %s",
                                    rate,
                                    controlRate,
                                    degradation.window(),
                                    degradation.reason()));
                });
    }

    /** Fast clients' p99 over the all-fast run's of the same repeat; empty when no repeat has both. */
    private static Optional<Gate> latency(String lane, List<LaneResult> results) {
        return overRepeats(
                lane,
                "fast clients' p99 <= " + (int) LATENCY_FACTOR + "x the all-fast run's",
                LaneResult.ALL_FAST,
                LATENCY_FACTOR,
                true,
                results,
                (mine, reference) -> new Figures(
                        mine.fastP99Micros(),
                        reference.fastP99Micros(),
                        String.format(
                                Locale.ROOT,
                                "%.2f ms vs %.2f ms",
                                mine.fastP99Micros() / 1e3,
                                reference.fastP99Micros() / 1e3)));
    }

    /** One repeat's figure of a lane and of its reference, and both in words. */
    private record Figures(double ours, double theirs, String detail) {}

    /**
     * A ratio gate ({@link FanOutGates#ratio}) of {@code lane} against the {@code reference} lane over
     * every repeat that has both and for which {@code figures} gives a pair (null: none); empty when none does.
     */
    private static Optional<Gate> overRepeats(
            String lane,
            String name,
            String reference,
            double target,
            boolean atMost,
            List<LaneResult> results,
            BiFunction<LaneResult, LaneResult, Figures> figures) {
        List<Figures> pairs = new ArrayList<>();
        for (int repeat : FanOutGates.repeats(results)) {
            Optional<LaneResult> mine = find(results, lane, repeat);
            Optional<LaneResult> other = find(results, reference, repeat);
            Figures pair = mine.isEmpty() || other.isEmpty() ? null : figures.apply(mine.get(), other.get());
            if (pair != null) {
                String label = FanOutGates.repeats(results).size() == 1 ? "" : "repeat " + repeat + ": ";
                pairs.add(new Figures(pair.ours(), pair.theirs(), label + pair.detail()));
            }
        }
        return pairs.isEmpty()
                ? Optional.empty()
                : Optional.of(FanOutGates.ratio(
                        lane,
                        name,
                        pairs.stream().mapToDouble(Figures::ours).toArray(),
                        pairs.stream().mapToDouble(Figures::theirs).toArray(),
                        target,
                        atMost,
                        pairs.stream().map(Figures::detail).toList()));
    }

    private static Optional<LaneResult> find(List<LaneResult> results, String lane, int repeat) {
        return results.stream()
                .filter(result -> result.lane().equals(lane) && result.repeat() == repeat)
                .findFirst();
    }

    static Gate sendQueuesBounded(LaneResult result, List<LaneSample> series) {
        long cap = FanOutLane.BOUNDED_MAX_QUEUED_BYTES * result.clients();
        int half = series.size() / 2;
        long firstHalf = LaneSample.peak(series.subList(0, half), LaneSample::sendQueueBytes);
        long secondHalf = LaneSample.peak(series.subList(half, series.size()), LaneSample::sendQueueBytes);
        boolean held = result.peakQueuedBytes() >= 0 && result.peakQueuedBytes() <= cap;
        boolean kernelFlat = firstHalf >= 0 && secondHalf <= SEND_QUEUE_GROWTH * firstHalf + SEND_QUEUE_SLACK_BYTES;
        return new Gate(
                result.lane(),
                "send queues bounded: held <= byte cap x clients at every sample, kernel's not growing",
                held && kernelFlat,
                String.format(
                        Locale.ROOT,
                        "held peak %.2f MiB <= %.2f MiB; kernel peak %.2f MiB in the"
                                + " first half, %.2f MiB in the second",
                        LaneResult.mib(result.peakQueuedBytes()),
                        LaneResult.mib(cap),
                        LaneResult.mib(firstHalf),
                        LaneResult.mib(secondHalf)));
    }

    static Gate unboundedGrows(LaneResult result, List<LaneSample> series) {
        boolean outOfMemory = result.serverDeath().equals("OutOfMemoryError");
        long bound =
                (long) (FanOutGates.UNBOUNDED_GROWTH_CAPS * FanOutLane.BOUNDED_MAX_QUEUED_BYTES * result.slowClients());
        int quarter = series.size() / 4;
        double second = meanQueued(series.subList(quarter, 2 * quarter));
        double last = meanQueued(series.subList(series.size() - quarter, series.size()));
        boolean connected = result.subscribersAtEnd() == result.clients();
        boolean grows = connected && result.queuedBytesAtEnd() > bound && quarter > 0 && last > second;
        return new Gate(
                result.lane(),
                "runs out of memory, or grows without bound with every client connected",
                outOfMemory || grows,
                outOfMemory
                        ? "died: OutOfMemoryError"
                        : String.format(
                                Locale.ROOT,
                                "held %.1f MiB at the end (bound %.1f MiB), mean %.1f MiB in the second quarter, %.1f MiB in the"
                                        + " last; %s%s",
                                LaneResult.mib(result.queuedBytesAtEnd()),
                                LaneResult.mib(bound),
                                second / (1024 * 1024),
                                last / (1024 * 1024),
                                result.subscribersAtEnd() < 0
                                        ? "clients connected at the end not recorded"
                                        : result.subscribersAtEnd() + " of " + result.clients()
                                                + " clients connected at the end",
                                result.serverDeath().isEmpty() ? "" : "; died: " + result.serverDeath()));
    }

    private static double meanQueued(List<LaneSample> samples) {
        return samples.stream()
                .mapToLong(LaneSample::queuedBytes)
                .filter(bytes -> bytes >= 0)
                .average()
                .orElse(Double.NaN);
    }
}
