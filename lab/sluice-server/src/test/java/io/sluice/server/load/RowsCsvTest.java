package io.sluice.server.load;

import io.sluice.lab.Load;
import io.sluice.server.Lane;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** rows.csv gives back exactly the rows written: figures at full precision, NaN, quotes and commas in text. */
class RowsCsvTest {

    private static final RowsCsv.Origin ORIGIN = new RowsCsv.Origin("abc1234-dirty", "25.0.1+8-LTS", "full(8s)");

    @TempDir
    Path dir;

    @Test
    void everyFieldSurvivesTheRoundTrip() throws IOException {
        Row closedLoop = RowFixtures.closedLoop("A1", 64, Lane.C, 23893.123456789, 8.8);
        Row withLoad = withLoad(closedLoop, new Load(1.25, 0.5, 0.031));
        Drain drain = new Drain(246.5, Double.NaN, 246, 4, 17.25, "live set: \"jcmd\" said no, twice");
        Row fastGet =
                RowFixtures.fastGet(Lane.B, 8.4, 186, 229, drain, "ramp 1.7 s (settled at 790 MiB), verified 64/64");
        Row put = RowFixtures.put(Lane.B, drain);
        Path file = dir.resolve(RowsCsv.FILE);
        for (Row row : List.of(withLoad, fastGet, put)) {
            RowsCsv.append(file, ORIGIN, row, 1);
        }

        List<RowsCsv.Line> read = RowsCsv.read(file);
        assertEquals(
                List.of(withLoad, fastGet, put),
                read.stream().map(RowsCsv.Line::row).toList());
        assertTrue(read.stream().allMatch(line -> line.origin().equals(ORIGIN)));
        assertEquals(RowsCsv.HEADER, Files.readAllLines(file).get(0), "the header is written once, first");
        assertEquals(4, Files.readAllLines(file).size());
    }

    @Test
    void eachLineKeepsItsRepeatAndAFileWithoutTheColumnReadsAsRepeatOne() throws IOException {
        Row row = RowFixtures.closedLoop("A1", 64, Lane.C, 6400, 3);
        Path file = dir.resolve(RowsCsv.FILE);
        RowsCsv.append(file, ORIGIN, row, 1);
        RowsCsv.append(file, ORIGIN, row, 2);
        assertEquals(
                List.of(1, 2),
                RowsCsv.read(file).stream().map(RowsCsv.Line::repeat).toList());

        Path before = dir.resolve("before.csv");
        String line = RowsCsv.format(ORIGIN, row, 1);
        Files.writeString(
                before, RowsCsv.HEADER_WITHOUT_REPEAT + "\n" + line.substring(0, line.lastIndexOf(',')) + "\n");
        List<RowsCsv.Line> read = RowsCsv.read(before);
        assertEquals(List.of(new RowsCsv.Line(ORIGIN, row, 1)), read, "a rows.csv written before repeats is repeat 1");

        Files.writeString(file, RowsCsv.HEADER + "\n" + line.substring(0, line.lastIndexOf(',')) + ",0\n");
        String message =
                assertThrows(IOException.class, () -> RowsCsv.read(file)).getMessage();
        assertTrue(message.contains(":2: repeat must be 1 or more, was 0"), message);
    }

    @Test
    void aFileWithoutTheHeaderOrWithAShortLineIsRefusedByLine() throws IOException {
        Path file = dir.resolve(RowsCsv.FILE);
        Files.writeString(file, "scenario,step\nA1,64 conn\n");
        assertTrue(assertThrows(IOException.class, () -> RowsCsv.read(file))
                .getMessage()
                .contains("the first line must be"));

        Files.writeString(file, RowsCsv.HEADER + "\n\"abc\",\"17\",\"full\",\"A1\"\n");
        String message =
                assertThrows(IOException.class, () -> RowsCsv.read(file)).getMessage();
        assertTrue(message.contains(":2: 34 fields expected, found 4"), message);
    }

    static Row withLoad(Row row, Load load) {
        return new Row(
                row.scenario(),
                row.step(),
                row.lane(),
                row.requestsPerSecond(),
                row.mibPerSecond(),
                row.p50Millis(),
                row.p99Millis(),
                row.p999Millis(),
                row.timeouts(),
                row.errors(),
                row.idleRssMiB(),
                row.peakRssMiB(),
                row.heapPeakShare(),
                row.heapAfterGcMiB(),
                row.directPeakMiB(),
                row.sendQueuePeakMiB(),
                row.threads(),
                row.cpuSeconds(),
                row.cpuSecondsPerGiB(),
                row.heapAllocatedMiBPerGiB(),
                load,
                row.drain(),
                row.note());
    }
}
