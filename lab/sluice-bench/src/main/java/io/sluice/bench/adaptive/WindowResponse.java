package io.sluice.bench.adaptive;

import io.sluice.lab.Csv;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * How a window reacts to the sink's switches, read from a run's series: for each switch, the
 * window just before it and how long after it the window first moved the right way (smaller after
 * fast → slow, larger after slow → fast), also counted in refill cycles (the time the slow sink
 * takes to write one pre-switch window, byte cap included).
 */
final class WindowResponse {

    /** One switch of the sink's rate. */
    record Switch(
            long atNanos,
            boolean toSlower,
            long windowBefore,
            long reactionNanos,
            long windowAfter,
            double refillCycles) {}

    /** Switches closer than this to the end of a run are not judged. */
    static final long REACTION_MARGIN_NANOS = 500_000_000L;

    private WindowResponse() {}

    static List<Switch> switches(Scenario scenario, RunResult run) {
        List<RunResult.Sample> series = run.series();
        List<Switch> result = new ArrayList<>();
        long duration = run.elapsedNanos();
        RateSchedule sink = scenario.sink();
        for (long end = sink.segmentEndAfter(0);
                end < duration - REACTION_MARGIN_NANOS;
                end = sink.segmentEndAfter(end)) { // each segment end but those too close to the end
            double before = sink.bytesPerSecondAt(end - 1);
            double after = sink.bytesPerSecondAt(end);
            if (before == after) {
                continue;
            }
            boolean toSlower = after < before;
            long at = end;
            long windowBefore = series.stream()
                    .takeWhile(sample -> sample.nanos() <= at)
                    .reduce((first, next) -> next)
                    .map(RunResult.Sample::windowItems)
                    .orElse(Long.MAX_VALUE); // the last sample's at the switch
            if (windowBefore == Long.MAX_VALUE) {
                continue;
            }
            Optional<RunResult.Sample> moved = series.stream()
                    .filter(sample -> sample.nanos() > at
                            && (toSlower ? sample.windowItems() < windowBefore : sample.windowItems() > windowBefore))
                    .findFirst();
            long reaction = moved.map(sample -> sample.nanos() - at).orElse(-1L);
            long windowAfter = moved.map(RunResult.Sample::windowItems).orElse(windowBefore);
            double windowBytes = Math.min((double) windowBefore * scenario.itemBytes(), scenario.maxQueuedBytes());
            double slowRate = Math.min(before, after);
            double refillNanos = windowBytes / slowRate * 1e9;
            result.add(new Switch(
                    end,
                    toSlower,
                    windowBefore,
                    reaction,
                    windowAfter,
                    reaction < 0 ? Double.NaN : reaction / refillNanos));
        }
        return result;
    }

    /** The rows of {@link ScenarioMain#WINDOWS_CSV} for one run; {@code reaction_ms} is empty where the window did not move. */
    static String csv(ScenarioMain.Comparison row, RunResult run, String source) {
        return csv(row.scenario(), row.strategy().name(), row.repetition(), run, source);
    }

    /** The same rows for a run of {@code scenario} under the strategy named {@code strategy}. */
    static String csv(Scenario scenario, String strategy, int repetition, RunResult run, String source) {
        StringBuilder text = new StringBuilder();
        for (Switch s : switches(scenario, run)) {
            text.append(String.join(
                            ",",
                            scenario.name(),
                            Csv.quote(strategy),
                            Integer.toString(repetition),
                            source,
                            Long.toString(s.atNanos() / 1_000_000),
                            Boolean.toString(s.toSlower()),
                            Long.toString(s.windowBefore()),
                            Long.toString(s.windowAfter()),
                            s.reactionNanos() < 0 ? "" : String.format(Locale.ROOT, "%.1f", s.reactionNanos() / 1e6)))
                    .append('\n');
        }
        return text.toString();
    }
}
