package io.sluice.bench.adaptive;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class RateScheduleTest {

    private static final long MS = 1_000_000;
    private static final long MIB = 1024 * 1024;

    @Test
    void constantRateTakesBytesOverRate() {
        RateSchedule schedule = RateSchedule.constantMiBps(100);
        assertEquals(10 * MS, schedule.finishNanos(0, MIB), 1);
        assertEquals(5_000 * MS + 10 * MS, schedule.finishNanos(5_000 * MS, MIB), 1);
    }

    @Test
    void stepsCarryATransferAcrossTheSwitch() {
        RateSchedule schedule = RateSchedule.stepsMiBps(200, 20, 2000);
        // 10 MiB starting 10 ms before the switch: 2 MiB at 200 MiB/s, then 8 MiB at 20 MiB/s = 400 ms
        assertEquals(2_000 * MS + 400 * MS, schedule.finishNanos(1_990 * MS, 10 * MIB), 1);
        assertEquals(20 * RateSchedule.MIB, schedule.bytesPerSecondAt(3_999 * MS));
        assertEquals(200 * RateSchedule.MIB, schedule.bytesPerSecondAt(4_000 * MS));
    }

    @Test
    void aStallDelaysTheTransferByItsLength() {
        RateSchedule schedule = RateSchedule.stepsWithStallsMiBps(100, 100, 1000, 300);
        // starts inside the first stall: waits until 300 ms, then 1 MiB at 100 MiB/s
        assertEquals(310 * MS, schedule.finishNanos(100 * MS, MIB), 1);
        // 1 MiB starting 5 ms before the second stall: 0.5 MiB, stall 300 ms, 0.5 MiB
        assertEquals(1_000 * MS + 300 * MS + 5 * MS, schedule.finishNanos(995 * MS, MIB), 1);
    }

    @Test
    void unlimitedFinishesAtOnce() {
        assertEquals(123, RateSchedule.unlimited().finishNanos(123, Long.MAX_VALUE / 2));
    }

    @Test
    void rejectsAScheduleStalledForever() {
        assertThrows(IllegalArgumentException.class, () -> RateSchedule.stepsMiBps(0, 0, 1000));
    }
}
