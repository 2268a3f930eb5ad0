package io.sluice.server.ws.load;

import io.sluice.lab.Estimate;
import io.sluice.server.ws.FanOutLane;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.stream.Collectors;

/**
 * The smoke gates of one run, as ratios and counts that seconds of load on a shared machine can
 * decide (lab/docs/WEBSOCKET.md lists them next to the full gates they stand for), one line each.
 */
final class FanOutGates {

    /** A bounded lane's fast client gets at least this many times a slow client's messages. */
    static final double FAST_OVER_SLOW = 10;
    /** A bounded lane delivers at least this share of the unbounded lane's messages/s (the full gate: 0.9). */
    static final double THROUGHPUT_SHARE = 0.4;
    /** The unbounded lane's queue ends above this many bounded caps per slow client. */
    static final double UNBOUNDED_GROWTH_CAPS = 2;

    private FanOutGates() {}

    /** A gate's verdict: a count or a limit passes or fails; a ratio over repeats may be inconclusive. */
    record Gate(String lane, String name, Estimate.Verdict verdict, String detail) {
        Gate(String lane, String name, boolean passed, String detail) {
            this(lane, name, passed ? Estimate.Verdict.MET : Estimate.Verdict.MISSED, detail);
        }

        boolean passed() {
            return verdict == Estimate.Verdict.MET;
        }

        boolean failed() {
            return verdict == Estimate.Verdict.MISSED;
        }

        String line() {
            String mark = passed() ? "PASS" : failed() ? "FAIL" : verdict.name().replace('_', ' ');
            return mark + " " + lane + ": " + name + " (" + detail + ")";
        }
    }

    /** The gates of a run: the full gates when it has the all-fast reference, else these smoke gates. */
    static List<Gate> forRun(List<LaneResult> results, List<LaneSample> samples) {
        return results.stream().anyMatch(LaneResult::allFast)
                ? FanOutFullGates.evaluate(results, samples)
                : everyRepeat(results, samples, (repeat, series) -> withinRepeat(repeat, series, false));
    }

    /** {@code gates: 18 passed, 1 failed}, and how many were neither when some were. */
    static String count(List<Gate> gates) {
        long passed = gates.stream().filter(Gate::passed).count();
        long failed = gates.stream().filter(Gate::failed).count();
        long neither = gates.size() - passed - failed;
        return "gates: " + passed + " passed, " + failed + " failed"
                + (neither == 0 ? "" : ", " + neither + " inconclusive or not measured");
    }

    /**
     * Gates decided within each repeat ({@code perRepeat} gets one repeat's rows and samples), one
     * line per lane and gate: passed when it passed in every repeat, failed when it failed in any.
     */
    static List<Gate> everyRepeat(
            List<LaneResult> results,
            List<LaneSample> samples,
            BiFunction<List<LaneResult>, List<LaneSample>, List<Gate>> perRepeat) {
        List<Integer> repeats = repeats(results);
        if (repeats.size() == 1) {
            return perRepeat.apply(results, samples);
        }
        Map<List<String>, List<Gate>> byGate = new LinkedHashMap<>(); // lane and name -> one gate per repeat
        for (int repeat : repeats) {
            List<LaneResult> rows =
                    results.stream().filter(result -> result.repeat() == repeat).toList();
            List<LaneSample> series =
                    samples.stream().filter(sample -> sample.repeat() == repeat).toList();
            perRepeat
                    .apply(rows, series)
                    .forEach(gate -> byGate.computeIfAbsent(List.of(gate.lane(), gate.name()), key -> new ArrayList<>())
                            .add(new Gate(
                                    gate.lane(),
                                    gate.name(),
                                    gate.verdict(),
                                    "repeat " + repeat + ": " + gate.detail())));
        }
        return byGate.values().stream()
                .map(gates -> new Gate(
                        gates.get(0).lane(),
                        gates.get(0).name(),
                        gates.stream().allMatch(Gate::passed)
                                ? Estimate.Verdict.MET
                                : gates.stream().anyMatch(Gate::failed)
                                        ? Estimate.Verdict.MISSED
                                        : Estimate.Verdict.INCONCLUSIVE,
                        gates.stream().map(Gate::detail).collect(Collectors.joining("; "))))
                .toList();
    }

    /**
     * A ratio gate over repeats: the 95% interval of the ratio of means of {@code ours} and {@code theirs}
     * against {@code target}, {@code ours[i]} and {@code theirs[i]} from one repeat and drawn as a pair
     * (a repeat runs every lane in turn, so a drift between repeats cancels); {@code details}: one per
     * repeat, in words.
     */
    static Gate ratio(
            String lane,
            String name,
            double[] ours,
            double[] theirs,
            double target,
            boolean atMost,
            List<String> details) {
        Estimate estimate = Estimate.pairedRatioOfMeans(
                ours, theirs, java.util.stream.IntStream.range(0, ours.length).toArray());
        String detail = ours.length == 1
                ? details.get(0) + "; 1 sample"
                : String.format(
                        Locale.ROOT,
                        "ratio %s over %d repeats; %s",
                        estimate.format(),
                        ours.length,
                        String.join("; ", details));
        return new Gate(lane, name, estimate.against(target, atMost), detail);
    }

    static List<Integer> repeats(List<LaneResult> results) {
        return results.stream().map(LaneResult::repeat).distinct().sorted().toList();
    }

    /**
     * Every client in order, no gap, no duplicate, no client error; a client error once the server
     * died is the death's (which its own gate judges), not an order fault.
     */
    static Gate inOrder(LaneResult result) {
        boolean errorFromDeath = !result.serverDeath().isEmpty();
        return new Gate(
                result.lane(),
                "every client in order, no gap, no duplicate",
                result.gaps() == 0
                        && result.duplicates() == 0
                        && (result.clientError().isEmpty() || errorFromDeath),
                "gaps " + result.gaps() + ", duplicates " + result.duplicates()
                        + (result.clientError().isEmpty()
                                ? ""
                                : ", error " + result.clientError()
                                        + (errorFromDeath ? " after the server died" : "")));
    }

    /** Every client the lane opened still connected at the end of its load; only for a row that recorded it. */
    static Gate noneDropped(LaneResult result) {
        return new Gate(
                result.lane(),
                "every client still connected at the end of the load",
                result.subscribersAtEnd() == result.clients(),
                result.subscribersAtEnd() + " of " + result.clients() + " subscribers live");
    }

    /** The gates decided within one repeat, per lane in the run's order; {@code full}: a full run's. */
    static List<Gate> withinRepeat(List<LaneResult> results, List<LaneSample> samples, boolean full) {
        Map<String, List<LaneSample>> series = samples.stream().collect(Collectors.groupingBy(LaneSample::lane));
        Optional<LaneResult> unbounded = results.stream()
                .filter(result -> result.lane().equals(FanOutLane.UNBOUNDED.flag()))
                .findFirst();
        List<Gate> gates = new ArrayList<>();
        for (LaneResult result : results) {
            String lane = result.lane();
            List<LaneSample> mine = series.getOrDefault(lane, List.of());
            gates.add(inOrder(result));
            if (lane.equals(FanOutLane.UNBOUNDED.flag())) {
                gates.add(full ? FanOutFullGates.unboundedGrows(result, mine) : queueGrows(result));
                continue;
            }
            gates.add(new Gate(
                    lane,
                    "server alive",
                    result.serverDeath().isEmpty(),
                    result.serverDeath().isEmpty() ? "ran to the end" : "died: " + result.serverDeath()));
            if (!full) {
                long cap = FanOutLane.BOUNDED_MAX_QUEUED_BYTES * result.clients();
                gates.add(new Gate(
                        lane,
                        "queued bytes within the byte cap times clients",
                        result.queuedBytesAtEnd() >= 0 && result.queuedBytesAtEnd() <= cap,
                        String.format(
                                Locale.ROOT,
                                "%.2f MiB <= %.2f MiB",
                                LaneResult.mib(result.queuedBytesAtEnd()),
                                LaneResult.mib(cap))));
                gates.add(fastOverSlow(result));
            }
            if (result.subscribersAtEnd() >= 0) {
                gates.add(noneDropped(result));
            }
            gates.add(new Gate(
                    lane,
                    "every subscription released after the clients closed",
                    result.released() == result.clients(),
                    result.released() + " of " + result.clients()));
            if (!full) {
                unbounded
                        .filter(control -> control.serverDeath().isEmpty())
                        .ifPresent(control -> gates.add(new Gate(
                                lane,
                                "messages/s >= " + THROUGHPUT_SHARE + "x the unbounded lane's",
                                result.messagesPerSecond() >= THROUGHPUT_SHARE * control.messagesPerSecond(),
                                String.format(
                                        Locale.ROOT,
                                        "%.0f vs %.0f",
                                        result.messagesPerSecond(),
                                        control.messagesPerSecond()))));
            } else if (!result.allFast()) {
                gates.add(FanOutFullGates.rssHeld(result));
                gates.add(FanOutFullGates.sendQueuesBounded(result, mine));
            }
        }
        return gates;
    }

    private static Gate queueGrows(LaneResult result) {
        long bound = (long) (UNBOUNDED_GROWTH_CAPS * FanOutLane.BOUNDED_MAX_QUEUED_BYTES * result.slowClients());
        return new Gate(
                result.lane(),
                "queue grows past the bounded lanes' bound, or the server dies",
                !result.serverDeath().isEmpty() || result.queuedBytesAtEnd() > bound,
                String.format(
                        Locale.ROOT,
                        "queued %.2f MiB, bound %.2f MiB%s",
                        LaneResult.mib(result.queuedBytesAtEnd()),
                        LaneResult.mib(bound),
                        result.serverDeath().isEmpty() ? "" : ", died: " + result.serverDeath()));
    }

    private static Gate fastOverSlow(LaneResult result) {
        int fast = result.clients() - result.slowClients();
        double fastEach = fast == 0 ? 0 : (double) result.fastMessages() / fast;
        double slowEach = result.slowClients() == 0 ? 0 : (double) result.slowMessages() / result.slowClients();
        return new Gate(
                result.lane(),
                "slow clients do not hold back the fast: a fast client gets >= " + (int) FAST_OVER_SLOW
                        + "x a slow one's messages",
                fastEach >= FAST_OVER_SLOW * Math.max(1, slowEach) && (result.slowClients() == 0 || slowEach > 0),
                String.format(Locale.ROOT, "fast %.0f, slow %.1f per client", fastEach, slowEach));
    }
}
