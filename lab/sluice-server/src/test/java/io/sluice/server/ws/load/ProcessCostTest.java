package io.sluice.server.ws.load;

import io.sluice.server.load.ProcessReadings;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The /proc readers behind {@link ProcessCost}, the difference of two snapshots, and its CSV columns. */
class ProcessCostTest {

    /** A server's stat line; its command holds a space and a parenthesis, as a thread name may. */
    private static final String STAT = "4242 (ws (server) x) S 1 4242 4242 0 -1 4194560 1200 0 3 0 1234 567 0 0 20 0 31"
            + " 0 100 4000000000 50000 18446744073709551615 1 1 0 0 0 0 0 4096 16902 0 0 0 17 1 0 0 0 0 0\n";

    private static final String IO = "rchar: 1049\nwchar: 84000000\nsyscr: 12\nsyscw: 4567\nread_bytes: 0\n"
            + "write_bytes: 0\ncancelled_write_bytes: 0\n";

    @Test
    void userAndSystemTimesAreTheFourteenthAndFifteenthFieldsCountedAfterTheCommand() {
        ProcessReadings.CpuTimes times = ProcessReadings.cpuTimes(STAT, 100);
        assertEquals(12.34, times.userSeconds(), 1e-9);
        assertEquals(5.67, times.systemSeconds(), 1e-9);
        assertEquals(1.234, ProcessReadings.cpuTimes(STAT, 1000).userSeconds(), 1e-9, "at another tick rate");
    }

    @Test
    void writeSyscallsAreTheSyscwLineAndMinusOneWithoutIt() {
        assertEquals(4567, ProcessReadings.writeSyscalls(IO));
        assertEquals(-1, ProcessReadings.writeSyscalls("rchar: 1\nwchar: 2\n"));
    }

    @Test
    void aProcessThatIsGoneReadsAsUnread() {
        long gone = Long.MAX_VALUE;
        assertEquals(ProcessReadings.CpuTimes.UNREAD, ProcessReadings.cpuTimes(gone));
        assertEquals(-1, ProcessReadings.writeSyscalls(gone));
    }

    @Test
    void thisJvmReadsAsARunningProcess() {
        long self = ProcessHandle.current().pid();
        ProcessReadings.CpuTimes times = ProcessReadings.cpuTimes(self);
        assertTrue(times.userSeconds() > 0 && times.systemSeconds() >= 0, times.toString());
        assertTrue(ProcessReadings.writeSyscalls(self) >= 0);
        assertTrue(ProcessReadings.ticksPerSecond() > 0);
    }

    @Test
    void theCostIsTheDifferenceOfTwoSnapshotsAndUnreadSyscallsStayUnread() {
        ProcessCost.Snapshot before =
                new ProcessCost.Snapshot(new ProcessReadings.CpuTimes(10, 4), 1000, new ProcessReadings.CpuTimes(3, 1));
        ProcessCost.Snapshot after = new ProcessCost.Snapshot(
                new ProcessReadings.CpuTimes(17, 9), 951_000, new ProcessReadings.CpuTimes(15, 5));
        assertEquals(new ProcessCost(7, 5, 950_000, 16), after.since(before));
        ProcessCost.Snapshot unreadAfter =
                new ProcessCost.Snapshot(ProcessReadings.CpuTimes.UNREAD, -1, new ProcessReadings.CpuTimes(15, 5));
        ProcessCost partial = unreadAfter.since(before);
        assertTrue(
                Double.isNaN(partial.serverUserSeconds())
                        && partial.serverWriteSyscalls() == -1
                        && partial.clientCpuSeconds() == 16
                        && partial.recorded(),
                partial.toString());
        assertTrue(!ProcessCost.NOT_RECORDED.recorded());
    }

    @Test
    void theCostColumnsComeLastInARowAndReadBackRecordedOrNot() {
        LaneResult recorded = FanOutFixtures.results().get(0);
        assertTrue(LaneResult.CSV_HEADER.endsWith(",repeat," + ProcessCost.CSV_HEADER));
        assertTrue(recorded.csvRow().endsWith(",1," + recorded.cost().csvFields()), recorded.csvRow());
        assertEquals(recorded, LaneResult.parse(recorded.csvRow()));
        LaneResult unrecorded = FanOutFixtures.withCost(recorded, ProcessCost.NOT_RECORDED);
        assertTrue(unrecorded.csvRow().endsWith(",NaN,NaN,-1,NaN"), unrecorded.csvRow());
        assertEquals(
                ProcessCost.NOT_RECORDED, LaneResult.parse(unrecorded.csvRow()).cost());
    }
}
