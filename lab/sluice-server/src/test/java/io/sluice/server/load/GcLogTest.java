package io.sluice.server.load;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

class GcLogTest {

    private static final long MIB = 1024 * 1024;

    @TempDir
    Path directory;

    @Test
    void readsTheHeapAfterEachPauseAndSkipsOtherLines() {
        List<String> lines = List.of(
                "[0.010s][info][gc] Using G1",
                "[1.203s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 24M->3M(256M) 2.345ms",
                "[1.500s][info][gc] GC(1) Pause Remark 30M->30M(256M) 1.1ms",
                "[2.001s][info][gc] GC(2) Pause Young (Concurrent Start) (G1 Humongous Allocation) 900K->512K(8192K) 1.0ms",
                "[3.000s][info][gc] GC(3) Pause Full (System.gc()) 40M->5M(40M) 20.1ms");
        assertEquals(
                List.of(
                        new GcLog.Pause(false, 3 * MIB),
                        new GcLog.Pause(false, 512 * 1024L),
                        new GcLog.Pause(true, 5 * MIB)),
                GcLog.pauses(lines));
    }

    @Test
    void findsThePeakAfterAMarkAndTheForcedFullPause() throws Exception {
        Path file = Files.write(
                directory.resolve("gc.log"),
                List.of(
                        "[1s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 100M->90M(256M) 2ms",
                        "[2s][info][gc] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 60M->20M(256M) 2ms",
                        "[3s][info][gc] GC(2) Pause Young (Normal) (G1 Evacuation Pause) 70M->30M(256M) 2ms",
                        "[4s][info][gc] GC(3) Pause Full (System.gc()) 40M->7M(64M) 9ms"));
        GcLog log = new GcLog(file);
        assertEquals(4, log.pauses());
        assertEquals(OptionalLong.of(90 * MIB), log.peakAfterBytes(0));
        assertEquals(OptionalLong.of(30 * MIB), log.peakAfterBytes(1), "pauses after the mark only");
        assertEquals(OptionalLong.of(7 * MIB), log.lastFullAfterBytes(3));
        assertEquals(OptionalLong.empty(), log.lastFullAfterBytes(4));
        assertEquals(OptionalLong.empty(), new GcLog(directory.resolve("missing.log")).peakAfterBytes(0));
    }
}
