package io.sluice.server.ws.load;

import io.sluice.server.ws.FanOutLane;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The smoke gates of one run, as ratios and counts that seconds of load on a shared machine can
 * decide (docs/WEBSOCKET.md lists them next to the full gates they stand for). Each gate is one
 * line, PASS or FAIL.
 */
final class FanOutGates {

    /** A bounded lane's fast client gets at least this many times a slow client's messages. */
    static final double FAST_OVER_SLOW = 10;
    /** A bounded lane delivers at least this share of the unbounded lane's messages/s (the full gate: 0.9; seconds on 2 shared cores swing widely). */
    static final double THROUGHPUT_SHARE = 0.4;
    /** The unbounded lane's queue ends above this many bounded caps per slow client. */
    static final double UNBOUNDED_GROWTH_CAPS = 2;

    private FanOutGates() {
    }

    /** A gate's verdict. */
    record Gate(String lane, String name, boolean passed, String detail) {
        String line() {
            return (passed ? "PASS " : "FAIL ") + lane + ": " + name + " (" + detail + ")";
        }
    }

    /**
     * The gates of a run: the full gates ({@link FanOutFullGates}) when it has the all-fast
     * reference, else these smoke gates.
     */
    static List<Gate> forRun(List<LaneResult> results, List<LaneSample> samples) {
        return results.stream().anyMatch(LaneResult::allFast) ? FanOutFullGates.evaluate(results, samples)
                : evaluate(results);
    }

    static List<Gate> evaluate(List<LaneResult> results) {
        List<Gate> gates = new ArrayList<>();
        Optional<LaneResult> unbounded = results.stream()
                .filter(result -> result.lane().equals(FanOutLane.UNBOUNDED.flag())).findFirst();
        for (LaneResult result : results) {
            String lane = result.lane();
            boolean boundedLane = !lane.equals(FanOutLane.UNBOUNDED.flag());
            gates.add(new Gate(lane, "every client in order, no gap, no duplicate",
                    result.gaps() == 0 && result.duplicates() == 0 && result.clientError().isEmpty(),
                    "gaps " + result.gaps() + ", duplicates " + result.duplicates()
                            + (result.clientError().isEmpty() ? "" : ", error " + result.clientError())));
            if (!boundedLane) {
                long bound = (long) (UNBOUNDED_GROWTH_CAPS * FanOutLane.BOUNDED_MAX_QUEUED_BYTES * result.slowClients());
                gates.add(new Gate(lane, "queue grows past the bounded lanes' bound, or the server dies",
                        !result.serverDeath().isEmpty() || result.queuedBytesAtEnd() > bound,
                        String.format(Locale.ROOT, "queued %.2f MiB, bound %.2f MiB%s", LaneResult.mib(result.queuedBytesAtEnd()),
                                LaneResult.mib(bound), result.serverDeath().isEmpty() ? "" : ", died: " + result.serverDeath())));
                continue;
            }
            gates.add(new Gate(lane, "server alive", result.serverDeath().isEmpty(),
                    result.serverDeath().isEmpty() ? "ran to the end" : "died: " + result.serverDeath()));
            long cap = FanOutLane.BOUNDED_MAX_QUEUED_BYTES * result.clients();
            gates.add(new Gate(lane, "queued bytes within the byte cap times clients",
                    result.queuedBytesAtEnd() >= 0 && result.queuedBytesAtEnd() <= cap,
                    String.format(Locale.ROOT, "%.2f MiB <= %.2f MiB", LaneResult.mib(result.queuedBytesAtEnd()), LaneResult.mib(cap))));
            int fast = result.clients() - result.slowClients();
            double fastEach = fast == 0 ? 0 : (double) result.fastMessages() / fast;
            double slowEach = result.slowClients() == 0 ? 0 : (double) result.slowMessages() / result.slowClients();
            gates.add(new Gate(lane, "slow clients do not hold back the fast: a fast client gets >= "
                    + (int) FAST_OVER_SLOW + "x a slow one's messages",
                    fastEach >= FAST_OVER_SLOW * Math.max(1, slowEach) && (result.slowClients() == 0 || slowEach > 0),
                    String.format(Locale.ROOT, "fast %.0f, slow %.1f per client", fastEach, slowEach)));
            gates.add(new Gate(lane, "every subscription released after the clients closed",
                    result.released() == result.clients(), result.released() + " of " + result.clients()));
            unbounded.filter(control -> control.serverDeath().isEmpty()).ifPresent(control -> gates.add(new Gate(lane,
                    "messages/s >= " + THROUGHPUT_SHARE + "x the unbounded lane's",
                    result.messagesPerSecond() >= THROUGHPUT_SHARE * control.messagesPerSecond(),
                    String.format(Locale.ROOT, "%.0f vs %.0f", result.messagesPerSecond(), control.messagesPerSecond()))));
        }
        return gates;
    }
}
