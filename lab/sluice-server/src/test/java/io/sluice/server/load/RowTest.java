package io.sluice.server.load;

import io.sluice.server.Lane;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The Markdown table: every line has one cell per header column, each figure under its own header. */
class RowTest {

    @Test
    void heapAllocatedPerGiBSitsBetweenCpuPerGiBAndTheNote() {
        List<String> header = cells(Row.header().lines().findFirst().orElseThrow());
        List<String> line =
                cells(RowFixtures.closedLoop("A1", 64, Lane.C, 6400, 3).markdown());
        assertEquals(header.size(), line.size(), "header " + header + ", line " + line);
        assertEquals(
                header.size(),
                cells(Row.header().lines().skip(1).findFirst().orElseThrow()).size(),
                "alignment row");
        assertEquals(
                List.of("CPU s", "CPU s/GiB", "heap alloc MiB/GiB", "note"),
                header.subList(header.size() - 4, header.size()));
        assertEquals(List.of("4.0", "12.5", "300", ""), line.subList(line.size() - 4, line.size()));
    }

    @Test
    void heapAllocatedPerGiBNotMeasuredShowsAsNotAvailable() {
        Row fixture = RowFixtures.put(Lane.B, null);
        Row unmeasured = new Row(
                fixture.scenario(),
                fixture.step(),
                fixture.lane(),
                fixture.requestsPerSecond(),
                fixture.mibPerSecond(),
                fixture.p50Millis(),
                fixture.p99Millis(),
                fixture.p999Millis(),
                fixture.timeouts(),
                fixture.errors(),
                fixture.idleRssMiB(),
                fixture.peakRssMiB(),
                fixture.heapPeakShare(),
                fixture.heapAfterGcMiB(),
                fixture.directPeakMiB(),
                fixture.sendQueuePeakMiB(),
                fixture.threads(),
                fixture.cpuSeconds(),
                fixture.cpuSecondsPerGiB(),
                Double.NaN,
                fixture.load(),
                fixture.drain(),
                fixture.note());
        List<String> line = cells(unmeasured.markdown());
        assertEquals("n/a", line.get(line.size() - 2));
    }

    /** The cells of a Markdown table line, trimmed, without the empty ends outside the outer bars. */
    private static List<String> cells(String line) {
        String[] parts = line.split("\\|", -1);
        return Arrays.stream(parts, 1, parts.length - 1).map(String::trim).toList();
    }
}
