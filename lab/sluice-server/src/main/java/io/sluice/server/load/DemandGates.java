package io.sluice.server.load;

import io.sluice.lab.Estimate;

import java.io.PrintStream;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import java.util.stream.IntStream;

import static io.sluice.server.load.GateBook.check;
import static io.sluice.server.load.GateBook.f;

/**
 * Scenario C's gates: absolute figures at full scale, ratios with headroom at smoke scale, where the per-switch
 * window count is only a NOTE; the unpaced case (its producers outrun the sink in both phases) is gated on memory
 * only. Figures and why: {@code lab/results/2026-11-22-scenario-c/README.md}. Repeats as in {@link Gates}.
 * Used by one thread.
 */
final class DemandGates {

    static final double FULL_MIB_PER_SECOND = 93;
    static final double FULL_BEST_FIXED_RATIO = 0.95;
    static final double SMOKE_IDEAL_RATIO = 0.5;
    static final double SMOKE_BEST_FIXED_RATIO = 0.5;
    static final long MAX_QUEUED_BYTES = 32L * 1024 * 1024;
    static final long FULL_CONTROL_BYTES = 512L * 1024 * 1024;
    static final long SMOKE_CONTROL_BYTES = MAX_QUEUED_BYTES;

    private final DemandScenario.Settings settings;
    private final boolean full;
    private final PrintStream out;

    DemandGates(DemandScenario.Settings settings, PrintStream out) {
        this.settings = settings;
        this.full = settings.scale() == DemandScenario.Size.FULL;
        this.out = out;
    }

    /** Prints the gates of each repeat's results (adaptive first, all-at-once last); returns the failed ones. */
    int judge(List<List<DemandScenario.Result>> paced, List<List<DemandScenario.Result>> unpaced) {
        GateBook book = new GateBook(paced.size(), out);
        List<DemandScenario.Result> first = paced.get(0);
        DemandScenario.Result adaptive = first.get(0);
        DemandScenario.Result control = first.get(first.size() - 1);
        int bestFixedIndex = IntStream.range(1, first.size() - 1)
                .boxed()
                .max(Comparator.comparingDouble(
                        fixedIndex -> mean(paced, fixedIndex, DemandScenario.Result::mibPerSecond)
                                .value()))
                .orElseThrow();
        DemandScenario.Result bestFixed = first.get(bestFixedIndex);
        double mib = adaptive.mibPerSecond();
        double ideal = settings.idealPacedMibPerSecond(adaptive.seconds());
        Estimate adaptiveMib = mean(paced, 0, DemandScenario.Result::mibPerSecond);
        if (full) {
            book.all(
                    f("C adaptive >= %.0f MiB/s aggregate", FULL_MIB_PER_SECOND),
                    f("%.1f MiB/s (%.2fx the ideal %.1f)", mib, mib / ideal, ideal),
                    List.of(check("adaptive MiB/s", adaptiveMib, FULL_MIB_PER_SECOND, false)));
        } else {
            book.all(
                    f("C adaptive >= %.2fx the ideal (smoke)", SMOKE_IDEAL_RATIO),
                    f("%.1f of %.1f MiB/s = %.2fx", mib, ideal, mib / ideal),
                    List.of(check(
                            "adaptive / ideal",
                            mean(
                                    paced,
                                    0,
                                    result ->
                                            result.mibPerSecond() / settings.idealPacedMibPerSecond(result.seconds())),
                            SMOKE_IDEAL_RATIO,
                            false)));
        }
        double ratio = full ? FULL_BEST_FIXED_RATIO : SMOKE_BEST_FIXED_RATIO;
        book.all(
                f("C adaptive >= %.2fx best fixed%s", ratio, full ? "" : " (smoke)"),
                f(
                        "%.1f vs %.1f MiB/s (%s) = %.2fx",
                        mib, bestFixed.mibPerSecond(), bestFixed.strategy(), mib / bestFixed.mibPerSecond()),
                List.of(check(
                        "adaptive / " + bestFixed.strategy() + " MiB/s",
                        Estimate.ratioOfMeans(
                                each(paced, 0, DemandScenario.Result::mibPerSecond),
                                each(paced, bestFixedIndex, DemandScenario.Result::mibPerSecond)),
                        ratio,
                        false)));
        queuedGate(book, "C", paced);
        long switches = adaptive.switches().size();
        if (full) {
            book.all(
                    "C adaptive window shrinks after every fast->slow switch",
                    f(
                            "%d of %d (above its floor at %d; mean window %.0f items in fast periods, %.0f in slow)",
                            adaptive.shrunk(),
                            switches,
                            adaptive.aboveFloor(),
                            adaptive.meanFastWindow(),
                            adaptive.meanSlowWindow()),
                    List.of(check(
                            "share of switches it shrank after",
                            mean(
                                    paced,
                                    0,
                                    result -> result.switches().isEmpty()
                                            ? 0
                                            : (double) result.shrunk()
                                                    / result.switches().size()),
                            1,
                            false)));
        } else {
            book.all(
                    "C adaptive window is larger in fast periods than in slow ones, over time (smoke)",
                    f("mean %.0f vs %.0f items", adaptive.meanFastWindow(), adaptive.meanSlowWindow()),
                    List.of(check(
                            "fast - slow mean window, items (> 0)",
                            mean(paced, 0, result -> result.meanFastWindow() - result.meanSlowWindow()),
                            Double.MIN_VALUE,
                            false)));
            out.printf(
                    Locale.ROOT,
                    "NOTE not gated at smoke scale: window shrank after %d of %d fast->slow switches"
                            + " (%d found it above its floor, it shrank after %d of those)%n",
                    adaptive.shrunk(),
                    switches,
                    adaptive.aboveFloor(),
                    adaptive.shrunkFromAboveFloor());
        }
        controlGate(book, "C", paced);
        queuedGate(book, "C unpaced", unpaced);
        controlGate(book, "C unpaced", unpaced);
        return book.close();
    }

    private void queuedGate(GateBook book, String name, List<List<DemandScenario.Result>> repeats) {
        book.all(
                f("%s adaptive queues <= %d MiB in total", name, MAX_QUEUED_BYTES >> 20),
                f("%.1f MiB", repeats.get(0).get(0).peakQueuedBytes() / DemandScenario.MIB),
                List.of(check(
                        "peak queued MiB",
                        mean(repeats, 0, result -> result.peakQueuedBytes() / DemandScenario.MIB),
                        MAX_QUEUED_BYTES / DemandScenario.MIB,
                        true)));
    }

    private void controlGate(GateBook book, String name, List<List<DemandScenario.Result>> repeats) {
        long threshold = full ? FULL_CONTROL_BYTES : SMOKE_CONTROL_BYTES;
        int last = repeats.get(0).size() - 1;
        DemandScenario.Result control = repeats.get(0).get(last);
        book.all(
                f("%s control: all-at-once queues >= %d MiB or runs out of memory", name, threshold >> 20),
                control.outOfMemory()
                        ? "OutOfMemoryError"
                        : f("%.1f MiB", control.peakQueuedBytes() / DemandScenario.MIB),
                List.of(check(
                        "peak queued MiB (out of memory: the threshold)",
                        mean(
                                repeats,
                                last,
                                result -> (result.outOfMemory() ? threshold : result.peakQueuedBytes())
                                        / DemandScenario.MIB),
                        threshold / DemandScenario.MIB,
                        false)));
    }

    private static double[] each(
            List<List<DemandScenario.Result>> repeats, int strategy, ToDoubleFunction<DemandScenario.Result> figure) {
        return repeats.stream()
                .mapToDouble(results -> figure.applyAsDouble(results.get(strategy)))
                .toArray();
    }

    private static Estimate mean(
            List<List<DemandScenario.Result>> repeats, int strategy, ToDoubleFunction<DemandScenario.Result> figure) {
        return Estimate.mean(each(repeats, strategy, figure));
    }
}
