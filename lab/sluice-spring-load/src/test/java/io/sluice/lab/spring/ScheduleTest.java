package io.sluice.lab.spring;

import org.junit.jupiter.api.Test;

import java.util.List;

import static io.sluice.lab.spring.Transfer.SLUICE_DOWNLOAD;
import static io.sluice.lab.spring.Transfer.SLUICE_STREAM;
import static io.sluice.lab.spring.Transfer.SPRING_MULTIPART;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ScheduleTest {

    @Test
    void aCellRunsEveryWarmUpFirstThenTheTransfersTakeTurnsSampleBySample() {
        List<Schedule.Step> steps = Schedule.cell(List.of(SPRING_MULTIPART, SLUICE_STREAM, SLUICE_DOWNLOAD), 1, 2);

        assertEquals(List.of(
                new Schedule.Step(SPRING_MULTIPART, -1), new Schedule.Step(SLUICE_STREAM, -1),
                new Schedule.Step(SLUICE_DOWNLOAD, -1),
                new Schedule.Step(SPRING_MULTIPART, 0), new Schedule.Step(SLUICE_STREAM, 0),
                new Schedule.Step(SLUICE_DOWNLOAD, 0),
                new Schedule.Step(SPRING_MULTIPART, 1), new Schedule.Step(SLUICE_STREAM, 1),
                new Schedule.Step(SLUICE_DOWNLOAD, 1)), steps);
        assertEquals(List.of(false, false, false, true, true, true, true, true, true),
                steps.stream().map(Schedule.Step::recorded).toList());
    }

    @Test
    void severalWarmUpsAlsoTakeTurnsAndNoneIsRecorded() {
        List<Schedule.Step> steps = Schedule.cell(List.of(SPRING_MULTIPART, SLUICE_STREAM), 2, 1);

        assertEquals(List.of(-2, -2, -1, -1, 0, 0), steps.stream().map(Schedule.Step::sample).toList());
        assertEquals(List.of(SPRING_MULTIPART, SLUICE_STREAM, SPRING_MULTIPART, SLUICE_STREAM, SPRING_MULTIPART,
                SLUICE_STREAM), steps.stream().map(Schedule.Step::transfer).toList());
        assertEquals(List.of(false, false, false, false, true, true), steps.stream().map(Schedule.Step::recorded).toList());
    }

    @Test
    void theWarmUpPassRunsEveryTransferOnceUnrecorded() {
        List<Schedule.Step> steps = Schedule.warmUpPass(List.of(Transfer.values()));

        assertEquals(List.of(Transfer.values()), steps.stream().map(Schedule.Step::transfer).toList());
        assertTrue(steps.stream().noneMatch(Schedule.Step::recorded), steps.toString());
    }

    @Test
    void theWarmUpPassRunsAtTheSmallestAndTheLargestSizeOnly() {
        assertEquals(List.of(1L << 20, 1L << 30), Schedule.warmUpSizes(List.of(100L << 20, 1L << 20, 1L << 30)));
        assertEquals(List.of(1L << 20), Schedule.warmUpSizes(List.of(1L << 20)));
    }
}
