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
 * ({@code bounded}, {@code fixed}): every client in order; the server alive, every client still
 * connected at the end of the load, and every subscription released; RSS <= idle +
 * {@link #RSS_HEADROOM_BYTES} at every sample; the bytes the server holds within the byte cap
 * times the clients at every sample and the kernel send queues not growing (their peak over the
 * second half of the samples at most {@link #SEND_QUEUE_GROWTH} times their peak over the first
 * half); messages/s at least {@link #THROUGHPUT_SHARE} times the unbounded lane's over the window
 * before that lane degraded, warm-up left out ({@link Degradation}); fast clients' p99 at most
 * {@link #LATENCY_FACTOR} times the all-fast run's. The unbounded control: its server ran out of
 * memory, or, with every client still connected at the end of the load, the bytes it holds end
 * above {@link FanOutGates#UNBOUNDED_GROWTH_CAPS} byte caps per slow client and still grow (their
 * mean over the last quarter of the samples above the mean over the second quarter). The two
 * ratios are decided over every repeat of the run ({@link FanOutGates#ratio}), the rest within
 * each repeat ({@link FanOutGates#everyRepeat}).
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
        List<Gate> gates = new ArrayList<>(FanOutGates.everyRepeat(results, samples, FanOutFullGates::withinRepeat));
        List<String> lanes = results.stream().filter(result -> !result.allFast()
                && !result.lane().equals(FanOutLane.UNBOUNDED.flag())).map(LaneResult::lane).distinct().toList();
        for (String lane : lanes) {
            List<Gate> ratios = new ArrayList<>();
            throughput(lane, results, samples).ifPresent(ratios::add);
            latency(lane, results).ifPresent(ratios::add);
            int last = 0;
            for (int i = 0; i < gates.size(); i++) {
                last = gates.get(i).lane().equals(lane) ? i + 1 : last;
            }
            gates.addAll(last, ratios); // after the lane's other gates
        }
        return gates;
    }

    /** The gates decided within one repeat: every one but the ratios to the other lanes. */
    private static List<Gate> withinRepeat(List<LaneResult> results, List<LaneSample> samples) {
        Map<String, List<LaneSample>> series = samples.stream()
                .collect(Collectors.groupingBy(LaneSample::lane, Collectors.toList()));
        List<Gate> gates = new ArrayList<>();
        for (LaneResult result : results) {
            String lane = result.lane();
            List<LaneSample> mine = series.getOrDefault(lane, List.of());
            gates.add(FanOutGates.inOrder(result));
            if (lane.equals(FanOutLane.UNBOUNDED.flag())) {
                gates.add(unboundedGrows(result, mine));
                continue;
            }
            gates.add(new Gate(lane, "server alive", result.serverDeath().isEmpty(),
                    result.serverDeath().isEmpty() ? "ran to the end" : "died: " + result.serverDeath()));
            Optional.ofNullable(FanOutGates.noneDropped(result)).ifPresent(gates::add);
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
        }
        return gates;
    }

    /**
     * Messages/s over the window before the unbounded lane degraded, the lane's over the control's
     * of the same repeat; empty when no repeat has both with a window.
     */
    private static Optional<Gate> throughput(String lane, List<LaneResult> results, List<LaneSample> samples) {
        List<Double> ours = new ArrayList<>();
        List<Double> theirs = new ArrayList<>();
        List<String> details = new ArrayList<>();
        for (int repeat : FanOutGates.repeats(results)) {
            Optional<LaneResult> mine = find(results, lane, repeat);
            Optional<LaneResult> control = find(results, FanOutLane.UNBOUNDED.flag(), repeat);
            if (mine.isEmpty() || control.isEmpty()) {
                continue;
            }
            List<LaneSample> controlSeries = series(samples, control.get().lane(), repeat);
            Degradation degradation = Degradation.of(controlSeries, control.get().idleRssBytes());
            if (degradation.seconds() <= 0) {
                continue;
            }
            double rate = degradation.rate(series(samples, lane, repeat));
            double controlRate = degradation.rate(controlSeries);
            ours.add(rate);
            theirs.add(controlRate);
            details.add(String.format(Locale.ROOT, "%s%.0f vs %.0f %s; the unbounded lane %s", label(results, repeat),
                    rate, controlRate, degradation.window(), degradation.reason()));
        }
        return ours.isEmpty() ? Optional.empty() : Optional.of(FanOutGates.ratio(lane, "messages/s >= "
                + THROUGHPUT_SHARE + "x the unbounded lane's before it degrades", array(ours), array(theirs),
                THROUGHPUT_SHARE, false, details));
    }

    /** Fast clients' p99 over the all-fast run's of the same repeat; empty when no repeat has both. */
    private static Optional<Gate> latency(String lane, List<LaneResult> results) {
        List<Double> ours = new ArrayList<>();
        List<Double> theirs = new ArrayList<>();
        List<String> details = new ArrayList<>();
        for (int repeat : FanOutGates.repeats(results)) {
            Optional<LaneResult> mine = find(results, lane, repeat);
            Optional<LaneResult> reference = find(results, LaneResult.ALL_FAST, repeat);
            if (mine.isEmpty() || reference.isEmpty()) {
                continue;
            }
            ours.add((double) mine.get().fastP99Micros());
            theirs.add((double) reference.get().fastP99Micros());
            details.add(String.format(Locale.ROOT, "%s%.2f ms vs %.2f ms", label(results, repeat),
                    mine.get().fastP99Micros() / 1e3, reference.get().fastP99Micros() / 1e3));
        }
        return ours.isEmpty() ? Optional.empty() : Optional.of(FanOutGates.ratio(lane, "fast clients' p99 <= "
                + (int) LATENCY_FACTOR + "x the all-fast run's", array(ours), array(theirs), LATENCY_FACTOR, true,
                details));
    }

    /** "repeat 2: " in a run of several repeats, nothing in a run of one. */
    private static String label(List<LaneResult> results, int repeat) {
        return FanOutGates.repeats(results).size() == 1 ? "" : "repeat " + repeat + ": ";
    }

    private static double[] array(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static List<LaneSample> series(List<LaneSample> samples, String lane, int repeat) {
        return samples.stream().filter(sample -> sample.lane().equals(lane) && sample.repeat() == repeat).toList();
    }

    private static Optional<LaneResult> find(List<LaneResult> results, String lane, int repeat) {
        return results.stream().filter(result -> result.lane().equals(lane) && result.repeat() == repeat).findFirst();
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
        boolean connected = result.subscribersAtEnd() == result.clients();
        boolean grows = connected && result.queuedBytesAtEnd() > bound && quarter > 0 && last > second;
        return new Gate(result.lane(), "runs out of memory, or grows without bound with every client connected",
                outOfMemory || grows, outOfMemory ? "died: OutOfMemoryError" : String.format(Locale.ROOT,
                        "held %.1f MiB at the end (bound %.1f MiB), mean %.1f MiB in the second quarter, %.1f MiB in the"
                                + " last; %s%s", LaneResult.mib(result.queuedBytesAtEnd()), LaneResult.mib(bound),
                        second / (1024 * 1024), last / (1024 * 1024), result.subscribersAtEnd() < 0
                                ? "clients connected at the end not recorded"
                                : result.subscribersAtEnd() + " of " + result.clients() + " clients connected at the end",
                        result.serverDeath().isEmpty() ? "" : "; died: " + result.serverDeath()));
    }

    private static double meanQueued(List<LaneSample> samples) {
        return samples.stream().mapToLong(LaneSample::queuedBytes).filter(bytes -> bytes >= 0).average().orElse(Double.NaN);
    }
}
