package io.sluice.lab;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;

/**
 * A ratio of two means with its 95% percentile bootstrap interval: {@link #RESAMPLES} times, each
 * side's samples are drawn again with replacement (or, for samples measured side by side, the
 * pairs: {@link #pairedRatioOfMeans}) and the ratio of the new means is taken; the interval holds
 * the middle 95% of those ratios. Every estimate starts from the same seed, so a
 * report computed twice from the same samples prints the same intervals.
 */
public record Estimate(double value, double low, double high) {

    public static final int RESAMPLES = 10_000;
    public static final Estimate NONE = new Estimate(Double.NaN, Double.NaN, Double.NaN);

    /** Forks a paired estimate needs before it draws whole forks rather than single pairs. */
    public static final int MIN_UNITS = 5;

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
        return of(numerator, denominator, ratios);
    }

    /**
     * {@code mean(numerator) / mean(denominator)} over pairs measured side by side:
     * {@code numerator[i]} beside {@code denominator[i]}, in the same JVM and round, moments apart.
     * The bootstrap draws pairs, never one side without the other, so what both sides of a pair
     * shared (the machine's state at the time, the JVM's compilation and layout) cancels in the
     * ratio instead of widening the interval. {@code unit[i]} is the JVM (fork) of pair {@code i}:
     * with at least {@link #MIN_UNITS} forks, whole forks are drawn, each with all its pairs, as the
     * rounds of one JVM are not independent of each other; with fewer, single pairs are. The value is
     * the one {@link #ratioOfMeans} gives for the same samples. {@link #NONE} if there is no pair.
     */
    public static Estimate pairedRatioOfMeans(double[] numerator, double[] denominator, int[] unit) {
        if (numerator.length != denominator.length || numerator.length != unit.length) {
            throw new IllegalArgumentException("pairs: " + numerator.length + " numerators, " + denominator.length
                    + " denominators, " + unit.length + " units");
        }
        if (numerator.length == 0) {
            return NONE;
        }
        int[][] draws = drawUnits(unit);
        Random random = new Random(SEED);
        double[] ratios = new double[RESAMPLES];
        for (int i = 0; i < RESAMPLES; i++) {
            double top = 0;
            double bottom = 0;
            for (int d = 0; d < draws.length; d++) {
                for (int pair : draws[random.nextInt(draws.length)]) {
                    top += numerator[pair];
                    bottom += denominator[pair];
                }
            }
            ratios[i] = top / bottom;
        }
        return of(numerator, denominator, ratios);
    }

    /**
     * {@code mean(numerator) / mean(denominator)} of two sides measured in turns ({@link SampleOrder}:
     * sample {@code i} of every side runs before sample {@code i + 1} of any), {@code turn[i]} the
     * sample index of value {@code i}. Where both sides have exactly the same turns, one value each,
     * the values of one turn are a pair ({@link #pairedRatioOfMeans}, each turn its own unit), so a
     * drift of the machine between turns cancels in the ratio; otherwise (a side lost a sample, or
     * has two in one turn) the sides are drawn apart ({@link #ratioOfMeans}). The value is the same
     * either way.
     */
    public static Estimate ratioOfMeansInTurns(
            int[] numeratorTurns, double[] numerator, int[] denominatorTurns, double[] denominator) {
        if (numeratorTurns.length != numerator.length || denominatorTurns.length != denominator.length) {
            throw new IllegalArgumentException("turns: " + numeratorTurns.length + " for " + numerator.length
                    + " numerators, " + denominatorTurns.length + " for " + denominator.length + " denominators");
        }
        Map<Integer, Integer> top = byTurn(numeratorTurns);
        Map<Integer, Integer> bottom = byTurn(denominatorTurns);
        if (top == null || bottom == null || !top.keySet().equals(bottom.keySet())) {
            return ratioOfMeans(numerator, denominator);
        }
        int pairs = top.size();
        double[] pairedTop = new double[pairs];
        double[] pairedBottom = new double[pairs];
        int[] unit = new int[pairs];
        int pair = 0;
        for (Map.Entry<Integer, Integer> turn : top.entrySet()) {
            pairedTop[pair] = numerator[turn.getValue()];
            pairedBottom[pair] = denominator[bottom.get(turn.getKey())];
            unit[pair] = turn.getKey();
            pair++;
        }
        return pairedRatioOfMeans(pairedTop, pairedBottom, unit);
    }

    /**
     * {@link #ratioOfMeansInTurns(int[], double[], int[], double[])} of two sides' samples, each
     * sample's turn and value read by {@code turn} and {@code value}.
     */
    public static <T> Estimate ratioOfMeansInTurns(
            List<T> numerator, List<T> denominator, ToIntFunction<T> turn, ToDoubleFunction<T> value) {
        return ratioOfMeansInTurns(
                numerator.stream().mapToInt(turn).toArray(),
                numerator.stream().mapToDouble(value).toArray(),
                denominator.stream().mapToInt(turn).toArray(),
                denominator.stream().mapToDouble(value).toArray());
    }

    /** Each turn's position in {@code turns}, in turn order; null if a turn comes twice. */
    private static Map<Integer, Integer> byTurn(int[] turns) {
        Map<Integer, Integer> positions = new TreeMap<>();
        for (int i = 0; i < turns.length; i++) {
            if (positions.put(turns[i], i) != null) {
                return null;
            }
        }
        return positions;
    }

    /** The ratio of the two sides' means, with the middle 95% of the resampled {@code ratios} (sorted here). */
    private static Estimate of(double[] numerator, double[] denominator, double[] ratios) {
        Arrays.sort(ratios);
        return new Estimate(
                Arrays.stream(numerator).sum()
                        / numerator.length
                        / (Arrays.stream(denominator).sum() / denominator.length),
                ratios[RESAMPLES / 40],
                ratios[RESAMPLES - RESAMPLES / 40 - 1]);
    }

    /** What one draw of {@link #pairedRatioOfMeans} takes: the pairs of one fork, or one pair. */
    private static int[][] drawUnits(int[] unit) {
        Map<Integer, List<Integer>> byUnit = new TreeMap<>();
        for (int pair = 0; pair < unit.length; pair++) {
            byUnit.computeIfAbsent(unit[pair], key -> new ArrayList<>()).add(pair);
        }
        if (byUnit.size() < MIN_UNITS) {
            int[][] single = new int[unit.length][];
            for (int pair = 0; pair < unit.length; pair++) {
                single[pair] = new int[] {pair};
            }
            return single;
        }
        return byUnit.values().stream()
                .map(pairs -> pairs.stream().mapToInt(Integer::intValue).toArray())
                .toArray(int[][]::new);
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
