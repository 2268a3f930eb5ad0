package io.sluice.lab;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SampleOrderTest {

    @Test
    void aCellRunsEveryWarmUpFirstThenTheTransfersTakeTurnsSampleBySample() {
        List<SampleOrder.Step<String>> steps = SampleOrder.cell(List.of("a", "b", "c"), 1, 2);

        assertEquals(
                List.of(
                        new SampleOrder.Step<>("a", -1),
                        new SampleOrder.Step<>("b", -1),
                        new SampleOrder.Step<>("c", -1),
                        new SampleOrder.Step<>("a", 0),
                        new SampleOrder.Step<>("b", 0),
                        new SampleOrder.Step<>("c", 0),
                        new SampleOrder.Step<>("a", 1),
                        new SampleOrder.Step<>("b", 1),
                        new SampleOrder.Step<>("c", 1)),
                steps);
        assertEquals(
                List.of(false, false, false, true, true, true, true, true, true),
                steps.stream().map(SampleOrder.Step::recorded).toList());
    }

    @Test
    void severalWarmUpsAlsoTakeTurnsAndNoneIsRecorded() {
        List<SampleOrder.Step<String>> steps = SampleOrder.cell(List.of("a", "b"), 2, 1);

        assertEquals(
                List.of(-2, -2, -1, -1, 0, 0),
                steps.stream().map(SampleOrder.Step::sample).toList());
        assertEquals(
                List.of("a", "b", "a", "b", "a", "b"),
                steps.stream().map(SampleOrder.Step::transfer).toList());
        assertEquals(
                List.of(false, false, false, false, true, true),
                steps.stream().map(SampleOrder.Step::recorded).toList());
    }

    @Test
    void theWarmUpPassRunsEveryTransferOnceUnrecorded() {
        List<SampleOrder.Step<String>> steps = SampleOrder.warmUpPass(List.of("a", "b", "c"));

        assertEquals(
                List.of("a", "b", "c"),
                steps.stream().map(SampleOrder.Step::transfer).toList());
        assertTrue(steps.stream().noneMatch(SampleOrder.Step::recorded), steps.toString());
    }

    @Test
    void theWarmUpPassRunsAtTheSmallestAndTheLargestSizeOnly() {
        assertEquals(List.of(1L << 20, 1L << 30), SampleOrder.warmUpSizes(List.of(100L << 20, 1L << 20, 1L << 30)));
        assertEquals(List.of(1L << 20), SampleOrder.warmUpSizes(List.of(1L << 20)));
    }
}
