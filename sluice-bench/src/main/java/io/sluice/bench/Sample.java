package io.sluice.bench;

import java.util.Locale;

/**
 * One measured invocation (all {@code parallelism} operations of one provider), as a CSV line.
 * {@code status} is {@code OK} or {@code FAILED: why}.
 */
public record Sample(int fork, Cell cell, String provider, int round, long nanos, long cpuNanos,
                     long allocatedBytes, long peakHeapBytes, long peakDirectBytes, int peakThreads,
                     String status) {

    public static final String HEADER =
            "fork,op,sizeBytes,parallelism,provider,round,nanos,cpuNanos,allocatedBytes,peakHeapBytes,"
                    + "peakDirectBytes,peakThreads,status";

    public boolean ok() {
        return status.equals("OK");
    }

    public String toCsv() {
        return String.format(Locale.ROOT, "%d,%s,%d,%d,%s,%d,%d,%d,%d,%d,%d,%d,%s", fork, cell.op(),
                cell.sizeBytes(), cell.parallelism(), provider, round, nanos, cpuNanos, allocatedBytes,
                peakHeapBytes, peakDirectBytes, peakThreads, status.replace(',', ';').replace('\n', ' '));
    }

    public static Sample parse(String line) {
        String[] f = line.split(",", 13);
        if (f.length != 13) {
            throw new IllegalArgumentException("not a sample line: " + line);
        }
        Cell cell = new Cell(Op.valueOf(f[1]), Long.parseLong(f[2]), Integer.parseInt(f[3]));
        return new Sample(Integer.parseInt(f[0]), cell, f[4], Integer.parseInt(f[5]), Long.parseLong(f[6]),
                Long.parseLong(f[7]), Long.parseLong(f[8]), Long.parseLong(f[9]), Long.parseLong(f[10]),
                Integer.parseInt(f[11]), f[12]);
    }
}
