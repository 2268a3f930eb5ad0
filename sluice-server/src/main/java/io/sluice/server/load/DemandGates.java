package io.sluice.server.load;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Scenario C's gates: absolute figures at full scale, ratios with headroom at smoke scale (seconds
 * of load on a shared 2-core CI machine), where the window gate compares time-weighted means and
 * the per-switch count is only a NOTE. Each gate's figures and why: the gate table of
 * {@code docs/results/2026-11-22-scenario-c/README.md}. The unpaced case is gated on memory only:
 * its producers outrun the sink in both phases, so no window behaviour is asked of it.
 *
 * <p><b>Threading:</b> used by one thread.
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
    private final List<Boolean> outcomes = new ArrayList<>();

    DemandGates(DemandScenario.Settings settings, PrintStream out) {
        this.settings = settings;
        this.full = settings.scale() == DemandScenario.Size.FULL;
        this.out = out;
    }

    /**
     * Prints one PASS/FAIL line per gate and the closing count.
     *
     * @param paced the paced case's results, adaptive first and all-at-once last
     * @param unpaced the unpaced case's results, in the same order
     * @return the number of failed gates
     */
    int check(List<DemandScenario.Result> paced, List<DemandScenario.Result> unpaced) {
        DemandScenario.Result adaptive = paced.get(0);
        DemandScenario.Result control = paced.get(paced.size() - 1);
        DemandScenario.Result bestFixed = paced.subList(1, paced.size() - 1).stream()
                .max((a, b) -> Double.compare(a.mibPerSecond(), b.mibPerSecond())).orElseThrow();
        double mib = adaptive.mibPerSecond();
        double ideal = settings.idealPacedMibPerSecond(adaptive.seconds());
        if (full) {
            gate(mib >= FULL_MIB_PER_SECOND, "C adaptive >= %.0f MiB/s aggregate: %.1f MiB/s (%.2fx the ideal %.1f)",
                    FULL_MIB_PER_SECOND, mib, mib / ideal, ideal);
        } else {
            gate(mib >= SMOKE_IDEAL_RATIO * ideal, "C adaptive >= %.2fx the ideal (smoke): %.1f of %.1f MiB/s = %.2fx",
                    SMOKE_IDEAL_RATIO, mib, ideal, mib / ideal);
        }
        double ratio = full ? FULL_BEST_FIXED_RATIO : SMOKE_BEST_FIXED_RATIO;
        gate(mib >= ratio * bestFixed.mibPerSecond(),
                "C adaptive >= %.2fx best fixed%s: %.1f vs %.1f MiB/s (%s) = %.2fx", ratio, full ? "" : " (smoke)",
                mib, bestFixed.mibPerSecond(), bestFixed.strategy(),
                mib / bestFixed.mibPerSecond());
        queuedGate("C", adaptive);
        long switches = adaptive.switches().size();
        if (full) {
            gate(switches > 0 && adaptive.shrunk() == switches,
                    "C adaptive window shrinks after every fast->slow switch: %d of %d (above its floor at %d;"
                            + " mean window %.0f items in fast periods, %.0f in slow)",
                    adaptive.shrunk(), switches, adaptive.aboveFloor(), adaptive.meanFastWindow(),
                    adaptive.meanSlowWindow());
        } else {
            gate(adaptive.meanFastWindow() > adaptive.meanSlowWindow(),
                    "C adaptive window is larger in fast periods than in slow ones, over time (smoke):"
                            + " mean %.0f vs %.0f items", adaptive.meanFastWindow(), adaptive.meanSlowWindow());
            out.printf(Locale.ROOT, "NOTE not gated at smoke scale: window shrank after %d of %d fast->slow switches"
                    + " (%d found it above its floor, it shrank after %d of those)%n", adaptive.shrunk(), switches,
                    adaptive.aboveFloor(), adaptive.shrunkFromAboveFloor());
        }
        controlGate("C", control);
        queuedGate("C unpaced", unpaced.get(0));
        controlGate("C unpaced", unpaced.get(unpaced.size() - 1));
        long failed = outcomes.stream().filter(ok -> !ok).count();
        out.println((outcomes.size() - failed) + " passed, " + failed + " failed");
        return (int) failed;
    }

    private void queuedGate(String name, DemandScenario.Result adaptive) {
        gate(adaptive.peakQueuedBytes() <= MAX_QUEUED_BYTES, "%s adaptive queues <= %d MiB in total: %.1f MiB", name,
                MAX_QUEUED_BYTES >> 20, adaptive.peakQueuedBytes() / DemandScenario.MIB);
    }

    private void controlGate(String name, DemandScenario.Result control) {
        long threshold = full ? FULL_CONTROL_BYTES : SMOKE_CONTROL_BYTES;
        gate(control.outOfMemory() || control.peakQueuedBytes() >= threshold,
                "%s control: all-at-once queues >= %d MiB or runs out of memory: %s", name, threshold >> 20,
                control.outOfMemory() ? "OutOfMemoryError"
                        : String.format(Locale.ROOT, "%.1f MiB", control.peakQueuedBytes() / DemandScenario.MIB));
    }

    private void gate(boolean ok, String format, Object... args) {
        outcomes.add(ok);
        out.println((ok ? "PASS " : "FAIL ") + String.format(Locale.ROOT, format, args));
    }
}
