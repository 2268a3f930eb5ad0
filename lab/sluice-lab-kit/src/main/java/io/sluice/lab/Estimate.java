package io.sluice.lab;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * A ratio of two means with its 95% percentile bootstrap interval: {@link #RESAMPLES} times, each
 * side's samples are drawn again with replacement and the ratio of the new means is taken; the
 * interval holds the middle 95% of those ratios. Every estimate starts from the same seed, so a
 * report computed twice from the same samples prints the same intervals.
 */
public record Estimate(double value, double low, double high) {

    public static final int RESAMPLES = 10_000;
    public static final Estimate NONE = new Estimate(Double.NaN, Double.NaN, Double.NaN);

    private static final long SEED = 20261125L;

    /** Whether a measured value clears, misses or straddles a target. */
    public enum Verdict {
        MET,
        MISSED,
        INCONCLUSIVE,
        NOT_MEASURED;

        @Override
        public String toString() {
            return this == NOT_MEASURED ? "n/a" : name().toLowerCase(Locale.ROOT);
        }

        /**
         * A gate's verdict over its cells: met if every cell is, missed if one is, not measured if
         * none is (or there is none), inconclusive otherwise (a cell not measured among measured ones
         * included).
         */
        public static Verdict every(List<Verdict> cells) {
            if (cells.contains(MISSED)) {
                return MISSED;
            }
            if (cells.stream().allMatch(verdict -> verdict == NOT_MEASURED)) {
                return NOT_MEASURED;
            }
            return cells.stream().allMatch(verdict -> verdict == MET) ? MET : INCONCLUSIVE;
        }
    }

    /** {@code mean(numerator) / mean(denominator)}; {@link #NONE} if a side is empty; one sample: too narrow. */
    public static Estimate ratioOfMeans(double[] numerator, double[] denominator) {
        if (numerator.length == 0 || denominator.length == 0) {
            return NONE;
        }
        Random random = new Random(SEED);
        double[] ratios = new double[RESAMPLES];
        for (int i = 0; i < RESAMPLES; i++) {
            ratios[i] = resampledMean(numerator, random) / resampledMean(denominator, random);
        }
        Arrays.sort(ratios);
        return new Estimate(
                Arrays.stream(numerator).sum()
                        / numerator.length
                        / (Arrays.stream(denominator).sum() / denominator.length),
                ratios[RESAMPLES / 40],
                ratios[RESAMPLES - RESAMPLES / 40 - 1]);
    }

    /** The mean of {@code values} with its interval. */
    public static Estimate mean(double[] values) {
        return ratioOfMeans(values, new double[] {1});
    }

    private static double resampledMean(double[] values, Random random) {
        double sum = 0;
        for (int i = 0; i < values.length; i++) {
            sum += values[random.nextInt(values.length)];
        }
        return sum / values.length;
    }

    /**
     * At least {@code target} (or at most, if {@code atMost}): met when the whole interval clears
     * it, missed when the whole interval lies on the wrong side, otherwise inconclusive.
     */
    public Verdict against(double target, boolean atMost) {
        if (Double.isNaN(value)) {
            return Verdict.NOT_MEASURED;
        }
        double worst = atMost ? -high : low;
        double best = atMost ? -low : high;
        double bar = atMost ? -target : target;
        return worst >= bar ? Verdict.MET : best < bar ? Verdict.MISSED : Verdict.INCONCLUSIVE;
    }

    /** {@code 1.23 (1.10-1.40)}, or {@code -} if not measured. */
    public String format() {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.2f (%.2f-%.2f)", value, low, high);
    }
}
