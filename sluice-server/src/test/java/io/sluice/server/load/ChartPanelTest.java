package io.sluice.server.load;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class ChartPanelTest {

    @Test
    void roundsAxisTopsUpToOneTwoTwoAndAHalfOrFiveTimesAPowerOfTen() {
        assertEquals(250, ChartPanel.niceCeiling(220));
        assertEquals(2500, ChartPanel.niceCeiling(2301));
        assertEquals(20, ChartPanel.niceCeiling(18));
        assertEquals(1, ChartPanel.niceCeiling(1));
        assertEquals(1, ChartPanel.niceCeiling(Double.NaN), "nothing to show still gets an axis");
    }

    @Test
    void picksGridIntervalsThatGiveRoundLabels() {
        assertEquals(5, ChartPanel.gridIntervals(250)); // 50 each
        assertEquals(4, ChartPanel.gridIntervals(20)); // 5 each
        assertEquals(5, ChartPanel.gridIntervals(1000)); // 200 each
    }

    @Test
    void roundsATimeSpanUpToWholeTickSteps() {
        assertArrayEquals(new double[] {2, 16}, ChartPanel.roundSpan(15.95, 10));
        assertArrayEquals(new double[] {10, 100}, ChartPanel.roundSpan(93.2, 10));
    }
}
