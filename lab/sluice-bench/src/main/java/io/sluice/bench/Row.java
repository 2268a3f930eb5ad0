package io.sluice.bench;

import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * One provider in one cell, over all its measured samples (every fork): the paper's AVG, STDDEV,
 * STDERR and Speed, plus the costs. {@code failure} is non-null when any sample failed.
 */
public record Row(
        Cell cell,
        String provider,
        boolean baseline,
        List<Sample> samples,
        double avgMs,
        double stddevMs,
        double stderrMs,
        double mibPerSecond,
        double cpuSecondsPerGiB,
        double allocatedMiBPerGiB,
        double peakHeapMiB,
        double peakDirectMiB,
        int peakThreads,
        String failure) {

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
        String failure = samples.stream()
                .filter(sample -> !sample.ok())
                .map(Sample::status)
                .findFirst()
                .orElse(null);
        int n = samples.size();
        double avg = n == 0 ? Double.NaN : sum(samples, sample -> sample.nanos() / 1e6) / n;
        double squares = sum(samples, sample -> (sample.nanos() / 1e6 - avg) * (sample.nanos() / 1e6 - avg));
        double stddev = n > 1 ? Math.sqrt(squares / (n - 1)) : 0;
        double cpu = sum(samples, sample -> sample.cpuNanos() / 1e9);
        double allocated = sum(samples, Sample::allocatedBytes);
        double gibPerInvocation = cell.totalBytes() / GIB;
        return new Row(
                cell,
                provider,
                baseline,
                List.copyOf(samples),
                avg,
                stddev,
                n > 0 ? stddev / Math.sqrt(n) : 0,
                cell.totalBytes() / MIB / (avg / 1e3),
                cpu / n / gibPerInvocation,
                allocated / n / MIB / gibPerInvocation,
                samples.stream()
                        .mapToDouble(sample -> sample.peakHeapBytes() / MIB)
                        .max()
                        .orElse(0),
                samples.stream()
                        .mapToDouble(sample -> sample.peakDirectBytes() / MIB)
                        .max()
                        .orElse(0),
                samples.stream().mapToInt(Sample::peakThreads).max().orElse(0),
                failure);
    }

    /** A plain left-to-right sum (not {@code DoubleStream.sum}'s compensated one), so the tables' figures stay put. */
    private static double sum(List<Sample> samples, ToDoubleFunction<Sample> value) {
        return samples.stream().mapToDouble(value).reduce(0, Double::sum);
    }
}
