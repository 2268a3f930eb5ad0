package io.sluice.lab;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EstimateTest {

    private static final double[] FAST = {10, 11, 9, 10, 12, 10, 9, 11};
    private static final double[] SLOW = {20, 22, 19, 21, 20, 18, 21, 20};

    @Test
    void theRatioIsOfTheMeansAndItsIntervalSurroundsIt() {
        Estimate ratio = Estimate.ratioOfMeans(SLOW, FAST);

        assertEquals(161.0 / 82.0, ratio.value(), 1e-12);
        assertTrue(ratio.low() < ratio.value() && ratio.value() < ratio.high(), ratio.format());
        assertTrue(ratio.low() > 1.8 && ratio.high() < 2.15, "tight samples, a tight interval: " + ratio.format());
    }

    @Test
    void theSameSamplesGiveTheSameIntervalEveryTime() {
        assertEquals(Estimate.ratioOfMeans(SLOW, FAST), Estimate.ratioOfMeans(SLOW, FAST));
        assertEquals(
                Estimate.ratioOfMeans(SLOW, FAST).format(),
                Estimate.ratioOfMeans(SLOW.clone(), FAST.clone()).format());
    }

    @Test
    void identicalSamplesHaveNoSpread() {
        Estimate ratio = Estimate.ratioOfMeans(new double[] {6, 6, 6}, new double[] {3, 3});

        assertEquals(new Estimate(2, 2, 2), ratio);
        assertEquals("2.00 (2.00-2.00)", ratio.format());
    }

    @Test
    void theIntervalCutsTwoAndAHalfPercentOffEachEnd() {
        // The resampled mean of {1, 2} is 1, 1.5 or 2 with chances 1/4, 1/2 and 1/4: each end holds
        // far more than 2.5% of the resamples, so the interval runs from one end to the other.
        Estimate ratio = Estimate.ratioOfMeans(new double[] {1, 2}, new double[] {1});

        assertEquals(1.5, ratio.value(), 1e-12);
        assertEquals(1.0, ratio.low(), 1e-12);
        assertEquals(2.0, ratio.high(), 1e-12);
    }

    @Test
    void aTargetAtLeastIsMetOnlyWhenTheLowEndClearsIt() {
        Estimate ratio = new Estimate(1.0, 0.9, 1.1);

        assertEquals(Estimate.Verdict.MET, ratio.against(0.9, false), "the low end on the target clears it");
        assertEquals(Estimate.Verdict.INCONCLUSIVE, ratio.against(0.91, false));
        assertEquals(Estimate.Verdict.INCONCLUSIVE, ratio.against(1.1, false), "the high end on the target");
        assertEquals(Estimate.Verdict.MISSED, ratio.against(1.11, false));
        assertEquals(Estimate.Verdict.NOT_MEASURED, Estimate.NONE.against(1, false));
    }

    @Test
    void aTargetAtMostIsMetOnlyWhenTheHighEndStaysUnderIt() {
        Estimate ratio = new Estimate(1.0, 0.9, 1.1);

        assertEquals(Estimate.Verdict.MET, ratio.against(1.1, true));
        assertEquals(Estimate.Verdict.INCONCLUSIVE, ratio.against(1.09, true));
        assertEquals(Estimate.Verdict.INCONCLUSIVE, ratio.against(0.9, true));
        assertEquals(Estimate.Verdict.MISSED, ratio.against(0.89, true));
    }

    @Test
    void aMissingSideIsNotMeasured() {
        assertEquals(Estimate.NONE, Estimate.ratioOfMeans(new double[0], FAST));
        assertEquals("-", Estimate.NONE.format());
    }

    @Test
    void aGateIsMetOnlyIfEveryCellIsAndMissedIfOneIs() {
        Estimate.Verdict met = Estimate.Verdict.MET;
        Estimate.Verdict missed = Estimate.Verdict.MISSED;
        Estimate.Verdict open = Estimate.Verdict.INCONCLUSIVE;
        Estimate.Verdict none = Estimate.Verdict.NOT_MEASURED;

        assertEquals(met, Estimate.Verdict.every(java.util.List.of(met, met)));
        assertEquals(missed, Estimate.Verdict.every(java.util.List.of(met, open, missed)));
        assertEquals(open, Estimate.Verdict.every(java.util.List.of(met, open)));
        assertEquals(open, Estimate.Verdict.every(java.util.List.of(met, none)));
        assertEquals(none, Estimate.Verdict.every(java.util.List.of(none, none)));
        assertEquals(none, Estimate.Verdict.every(java.util.List.of()));
    }

    @Test
    void whatBothSidesOfAPairShareCancelsInAPairedRatio() {
        // each pair measured at a different pace of the machine (1x to 20x), the numerator always
        // twice the denominator: side by side the ratio is exactly 2, drawn apart it is not
        double[] pace = {1, 3, 20, 2, 7, 11};
        double[] numerator = Arrays.stream(pace).map(seconds -> 2 * seconds).toArray();
        int[] forks = {0, 1, 2, 3, 4, 5};

        Estimate paired = Estimate.pairedRatioOfMeans(numerator, pace, forks);
        Estimate apart = Estimate.ratioOfMeans(numerator, pace);

        assertEquals(2, paired.value(), 1e-12);
        assertEquals(2, paired.low(), 1e-12);
        assertEquals(2, paired.high(), 1e-12);
        assertEquals(apart.value(), paired.value(), 1e-12);
        assertTrue(apart.low() < 1.5 && apart.high() > 2.5, "apart: " + apart.format());
    }

    @Test
    void sidesMeasuredInTurnsArePairedByTurnWhateverTheirOrderAndDrawnApartWhenATurnIsMissing() {
        // turn t ran at pace[t]; the numerator is always twice the denominator of its turn, listed
        // in another order: paired by turn the ratio is exactly 2
        double[] pace = {1, 3, 20, 2, 7, 11};
        int[] turns = {0, 1, 2, 3, 4, 5};
        int[] shuffled = {5, 0, 4, 1, 3, 2};
        double[] numerator =
                Arrays.stream(shuffled).mapToDouble(turn -> 2 * pace[turn]).toArray();

        Estimate inTurns = Estimate.ratioOfMeansInTurns(shuffled, numerator, turns, pace);

        assertEquals(2, inTurns.value(), 1e-12);
        assertEquals(2, inTurns.low(), 1e-12);
        assertEquals(2, inTurns.high(), 1e-12);

        // the numerator lost turn 2: no pairs, so drawn apart, the value of the means as they are
        int[] lost = {0, 1, 3, 4, 5};
        double[] fewer = Arrays.stream(lost).mapToDouble(turn -> 2 * pace[turn]).toArray();
        Estimate apart = Estimate.ratioOfMeansInTurns(lost, fewer, turns, pace);
        assertEquals(Estimate.ratioOfMeans(fewer, pace), apart);
        assertTrue(apart.low() < 1.5 && apart.high() > 2, "apart: " + apart.format());

        assertThrows(
                IllegalArgumentException.class,
                () -> Estimate.ratioOfMeansInTurns(new int[] {0}, numerator, turns, pace));
    }

    @Test
    void fromFiveForksOnWholeForksAreDrawn() {
        // every fork has the pairs (1, 2) and (2, 1): a draw of whole forks always sums to a ratio of
        // 1; a draw of single pairs does not
        int forks = Estimate.MIN_UNITS;
        double[] numerator = new double[2 * forks];
        double[] denominator = new double[2 * forks];
        int[] unit = new int[2 * forks];
        for (int fork = 0; fork < forks; fork++) {
            numerator[2 * fork] = 1;
            denominator[2 * fork] = 2;
            numerator[2 * fork + 1] = 2;
            denominator[2 * fork + 1] = 1;
            unit[2 * fork] = fork;
            unit[2 * fork + 1] = fork;
        }

        Estimate byFork = Estimate.pairedRatioOfMeans(numerator, denominator, unit);
        Estimate byPair = Estimate.pairedRatioOfMeans(
                Arrays.copyOf(numerator, 2 * (forks - 1)),
                Arrays.copyOf(denominator, 2 * (forks - 1)),
                Arrays.copyOf(unit, 2 * (forks - 1)));

        assertEquals(new Estimate(1, 1, 1), byFork);
        assertTrue(byPair.low() < 0.8 && byPair.high() > 1.25, "fewer forks, pairs drawn: " + byPair.format());
    }

    @Test
    void pairsMustPairUp() {
        assertThrows(
                IllegalArgumentException.class,
                () -> Estimate.pairedRatioOfMeans(new double[] {1, 2}, new double[] {1}, new int[] {0, 1}));
        assertEquals(Estimate.NONE, Estimate.pairedRatioOfMeans(new double[0], new double[0], new int[0]));
    }
}
