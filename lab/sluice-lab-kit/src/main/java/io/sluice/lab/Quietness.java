package io.sluice.lab;

import java.util.Collection;
import java.util.Locale;
import java.util.stream.DoubleStream;

/**
 * The quiet rule over a run's measurements (samples, lanes, thread counts): a run is quiet when the
 * load of every measurement is known and none is {@link Load#noisy() noisy}. What a run's blocks say
 * of its machine, in one wording for every tool.
 *
 * @param unit what one measurement is called in words ("sample", "lane", "thread count")
 * @param measurements how many measurements the run has
 * @param unknown how many of them recorded no load
 * @param noisy how many of them other work kept more than {@link Load#NOISY_ABOVE} of the cores busy during
 * @param busiest the largest share of the cores other work kept busy during one of them; NaN if none is known
 */
public record Quietness(String unit, int measurements, long unknown, long noisy, double busiest) {

    /**
     * The rule applied to the loads of a run's measurements, each called a {@code unit} ({@link Load#UNKNOWN} for
     * one that recorded none).
     */
    public static Quietness of(String unit, Collection<Load> loads) {
        return new Quietness(
                unit,
                loads.size(),
                loads.stream().filter(load -> Double.isNaN(load.othersBusy())).count(),
                loads.stream().filter(Load::noisy).count(),
                busiest(loads.stream().mapToDouble(Load::othersBusy)));
    }

    /**
     * The rule over the measurements of several runs together, each counted once ({@code runs} of one
     * {@code unit}): noisy if one of them was, unknown if one of them recorded no load.
     */
    public static Quietness together(String unit, Collection<Quietness> runs) {
        return new Quietness(
                unit,
                runs.stream().mapToInt(Quietness::measurements).sum(),
                runs.stream().mapToLong(Quietness::unknown).sum(),
                runs.stream().mapToLong(Quietness::noisy).sum(),
                busiest(runs.stream().mapToDouble(Quietness::busiest)));
    }

    /** The largest known share; NaN if none is known. */
    private static double busiest(DoubleStream shares) {
        return shares.filter(value -> !Double.isNaN(value)).max().orElse(Double.NaN);
    }

    /** At least one measurement, other work's share known for every one, and none noisy. */
    public boolean quiet() {
        return measurements > 0 && unknown == 0 && noisy == 0;
    }

    /**
     * The run's machine in words: quiet or NOISY with the busiest share and how many measurements were noisy, or
     * unknown with how many did not record other work's share of the cores (some runs recorded the load
     * average only).
     */
    public String inWords() {
        if (unknown > 0) {
            return "machine unknown (other work's share of the cores not recorded for " + unknown + " of "
                    + measurements + " " + unit + "s)";
        }
        return String.format(
                Locale.ROOT,
                "%s: other work kept at most %.0f%% of the cores busy during a %s (%d of %d %ss above %.0f%%)",
                quiet() ? "quiet" : "NOISY",
                100 * busiest,
                unit,
                noisy,
                measurements,
                unit,
                100 * Load.NOISY_ABOVE);
    }
}
