package io.sluice.bench;

import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * One provider in one cell, over all its measured samples (every fork): the paper's AVG, STDDEV,
 * STDERR and Speed, plus the costs. {@code failure} is non-null when any sample failed.
 */
public record Row(Cell cell, String provider, boolean baseline, List<Sample> samples, double avgMs, double stddevMs,
                  double stderrMs, double mibPerSecond, double cpuSecondsPerGiB, double allocatedMiBPerGiB,
                  double peakHeapMiB, double peakDirectMiB, int peakThreads, String failure) {

    private static final double MIB = 1024.0 * 1024.0;
    private static final double GIB = 1024.0 * MIB;

    /** Fewer samples than this in a row: its cell is marked, its intervals too narrow to trust. */
    public static final int MIN_SAMPLES = 5;

    public boolean ok() {
        return failure == null;
    }

    /** One value per sample, in sample order. */
    public double[] each(ToDoubleFunction<Sample> value) {
        return samples.stream().mapToDouble(value).toArray();
    }

    /** Aggregates one provider's samples in one cell. */
    public static Row of(Cell cell, String provider, boolean baseline, List<Sample> samples) {
        String failure = null;
        for (Sample sample : samples) {
            if (!sample.ok()) {
                failure = sample.status();
                break;
            }
        }
        int n = samples.size();
        double sumMs = 0;
        double cpu = 0;
        double allocated = 0;
        double peakHeap = 0;
        double peakDirect = 0;
        int threads = 0;
        for (Sample sample : samples) {
            sumMs += sample.nanos() / 1e6;
            cpu += sample.cpuNanos() / 1e9;
            allocated += sample.allocatedBytes();
            peakHeap = Math.max(peakHeap, sample.peakHeapBytes() / MIB);
            peakDirect = Math.max(peakDirect, sample.peakDirectBytes() / MIB);
            threads = Math.max(threads, sample.peakThreads());
        }
        double avg = n == 0 ? Double.NaN : sumMs / n;
        double squares = 0;
        for (Sample sample : samples) {
            double d = sample.nanos() / 1e6 - avg;
            squares += d * d;
        }
        double stddev = n > 1 ? Math.sqrt(squares / (n - 1)) : 0;
        double gibPerInvocation = cell.totalBytes() / GIB;
        return new Row(cell, provider, baseline, List.copyOf(samples), avg, stddev, n > 0 ? stddev / Math.sqrt(n) : 0,
                cell.totalBytes() / MIB / (avg / 1e3), cpu / n / gibPerInvocation,
                allocated / n / MIB / gibPerInvocation, peakHeap, peakDirect, threads, failure);
    }
}
